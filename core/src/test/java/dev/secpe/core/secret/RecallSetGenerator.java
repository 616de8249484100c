package dev.secpe.core.secret;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import net.datafaker.Faker;

/**
 * Writes the labelled detector recall set ({@link RecallSet#RESOURCE}): spellings generated with
 * Datafaker from fixed seeds (realistic values in many locales and formats) and spellings written
 * here by hand (obfuscations, Unicode variants, near misses that must not match). Regenerate with
 *
 * <pre>
 * ./mvnw -B -ntp -o test -pl core -am -Dtest=RecallSetTest -Dsurefire.failIfNoSpecifiedTests=false -Drecall.regenerate=true
 * </pre>
 *
 * <p>{@code RecallSetTest} checks that the shipped file is exactly what this class writes, so the
 * set is never edited (or tuned) by hand in the file itself. A hand-written line marks each secret
 * as {@code «KIND=VALUE|SPELLING»} or {@code «KIND|SPELLING»}: the span is SPELLING, VALUE the
 * canonical value a detector should name it by (none given where the set does not decide it).
 */
final class RecallSetGenerator {

  /** The seed of every Datafaker stream here (the issue's number). */
  static final long SEED = 50;

  private final List<String> lines = new ArrayList<>();
  private final ObjectMapper json = new ObjectMapper();

  private RecallSetGenerator() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "core/src/test/resources" + RecallSet.RESOURCE);
    Files.writeString(out, generate(), StandardCharsets.UTF_8);
  }

  /** The whole set, one JSON object a line, in a fixed order. */
  static String generate() {
    RecallSetGenerator g = new RecallSetGenerator();
    g.email();
    g.phone();
    g.url();
    g.ip();
    g.card();
    g.name();
    g.uncovered();
    return String.join("\n", g.lines) + "\n";
  }

  // --- the lines ---------------------------------------------------------------------------

  /** A hand-written line with «KIND=VALUE|SPELLING» markers. */
  private void hand(String family, String marked) {
    StringBuilder text = new StringBuilder();
    List<String[]> spans = new ArrayList<>(); // kind, start, end, value
    int i = 0;
    while (i < marked.length()) {
      int open = marked.indexOf('«', i);
      if (open < 0) {
        text.append(marked, i, marked.length());
        break;
      }
      text.append(marked, i, open);
      int close = marked.indexOf('»', open);
      int bar = marked.indexOf('|', open);
      if (close < 0 || bar < 0 || bar > close) {
        throw new IllegalArgumentException("bad marker in " + family);
      }
      String head = marked.substring(open + 1, bar);
      String spelled = marked.substring(bar + 1, close);
      int eq = head.indexOf('=');
      String kind = eq < 0 ? head : head.substring(0, eq);
      String value = eq < 0 ? null : head.substring(eq + 1);
      int start = text.length();
      text.append(spelled);
      spans.add(new String[] {kind, Integer.toString(start), Integer.toString(text.length()), value});
      i = close + 1;
    }
    add(family, "hand", text.toString(), spans);
  }

  /** A generated line: {@code template} with one "{}" replaced by {@code spelled}. */
  private void gen(String family, String template, String kind, String spelled, String value) {
    int at = template.indexOf("{}");
    String text = template.substring(0, at) + spelled + template.substring(at + 2);
    List<String[]> spans = new ArrayList<>();
    spans.add(
        new String[] {kind, Integer.toString(at), Integer.toString(at + spelled.length()), value});
    add(family, "datafaker", text, spans);
  }

  private void add(String family, String source, String text, List<String[]> spans) {
    ObjectNode o = json.createObjectNode();
    o.put("family", family);
    o.put("source", source);
    o.put("text", text);
    ArrayNode a = o.putArray("spans");
    for (String[] s : spans) {
      ObjectNode n = a.addObject();
      n.put("kind", s[0]);
      n.put("start", Integer.parseInt(s[1]));
      n.put("end", Integer.parseInt(s[2]));
      if (s[3] != null) {
        n.put("value", s[3]);
      }
    }
    try {
      lines.add(json.writeValueAsString(o));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Faker faker(String locale, long stream) {
    return new Faker(Locale.forLanguageTag(locale), new Random(SEED * 1000 + stream));
  }

  private static final String[] CONTACT = {
    "Please call me on {} before noon.",
    "My number is {}, thanks.",
    "Contact: {}",
    "{} is the best way to reach me.",
    "The customer left {} as a contact.",
    "You can also try {} after 5pm.",
  };

  private static final String[] MAIL = {
    "Mail {} with any questions.",
    "Reply-To: {}",
    "Send the invoice to {} please.",
    "{} wrote: the server is down again.",
    "cc {} on the next update",
  };

  private static final String[] SEE = {
    "See {} for the details.",
    "The logs were uploaded to {} yesterday.",
    "Link: {}",
    "Request from {} timed out.",
  };

  private static final String[] PERSON = {
    "Please ask {} about the invoice.",
    "{} reported the outage this morning.",
    "Forwarded to {} in billing.",
    "I spoke with {} yesterday and she agreed.",
    "Thanks, {}",
    "The account belongs to {} since 2019.",
    "Escalated by {} on Monday.",
  };

  private static String pick(Random r, String[] templates) {
    return templates[r.nextInt(templates.length)];
  }

  // --- e-mail --------------------------------------------------------------------------------

  private void email() {
    Random r = new Random(SEED + 1);
    for (String loc : List.of("en-US", "de", "fr", "nl")) {
      Faker f = faker(loc, 1);
      for (int k = 0; k < 10; k++) {
        String e = f.internet().emailAddress();
        gen("email/plain", pick(r, MAIL), "email", e, e.toLowerCase(Locale.ROOT));
      }
    }
    hand("email/plain", "Mail «email=ops@example.com|ops@example.com» with any questions.");
    hand("email/case", "Reply to «email=chris.garrigues@deepeddy.com|Chris.Garrigues@DeepEddy.Com» today");
    hand("email/case", "«email=anna.berg@example.org|ANNA.BERG@EXAMPLE.ORG» wrote:");
    hand("email/case", "From «email=j.smith@example.co.uk|J.Smith@Example.CO.UK»");
    hand("email/tagged", "(«email=me+tag@sub.example.co.uk|me+tag@sub.example.co.uk»).");
    hand("email/tagged", "«email=x_y%z@a-b.io|x_y%z@a-b.io», my alias");
    hand("email/tagged", "use «email=billing+2024@mail.example.com|billing+2024@mail.example.com» for receipts");
    hand("email/angle", "From: «name=ann lee|Ann Lee» <«email=ann@example.net|ann@example.net»>");
    hand("email/angle", "<a href=\"mailto:«email=sales@example.com|sales@example.com»\">write</a>");
    hand("email/angle", "mailto:«email=help@example.org|help@example.org»?subject=hi");
    hand("email/obfuscated", "write to «email=john@example.com|john [at] example [dot] com» please");
    hand("email/obfuscated", "«email=john@example.com|john at example dot com»");
    hand("email/obfuscated", "mail «email=jane.doe@example.org|jane.doe(at)example.org»");
    hand("email/obfuscated", "«email=jane@example.org|jane @ example.org»");
    hand("email/obfuscated", "«email=mike@example.com|mike{at}example{dot}com»");
    hand("email/obfuscated", "«email=mike@example.com|mike AT example DOT com»");
    hand("email/obfuscated", "«email=support@example.co.uk|support[@]example.co.uk»");
    hand("email/obfuscated", "reach «email=ops@example.com|ops@example[.]com»");
    hand("email/zero-width", "«email=john@example.com|jo\u200Bhn@example.com»");
    hand("email/zero-width", "«email=john@example.com|john@\u200Bexample.com»");
    hand("email/zero-width", "«email=johnsmith@example.com|john\u00ADsmith@example.com»");
    hand("email/zero-width", "«email=ann@example.org|ann@exam\u2060ple.org»");
    hand("email/zero-width", "«email=ann@example.org|\uFEFFann@example.org»");
    hand("email/fullwidth", "«email=john@example.com|ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ»");
    hand("email/fullwidth", "mail «email=ops@example.com|ops＠example.com»");
    hand("email/fullwidth", "«email=ops@example.com|ops﹫example.com»");
    hand("email/non-ascii", "«email=josé@example.com|josé@example.com»");
    hand("email/non-ascii", "«email=müller@bücher.de|Müller@Bücher.de»");
    hand("email/non-ascii", "«email=ελένη@example.gr|ελένη@example.gr»");
    hand("email/near-miss", "Meet @ 5pm at the cafe");
    hand("email/near-miss", "Buy 3 @ $4.50 each");
    hand("email/near-miss", "the annotation @Override on foo()");
    hand("email/near-miss", "npm install @types/node@18.2.0");
    hand("email/near-miss", "price 5@3.50");
    hand("email/near-miss", "icons are icon@2x.png and icon@3x.png");
    hand("email/near-miss", "@example.com is the domain, not an address");
    hand("email/near-miss", "user@localhost");
  }

  // --- phone ---------------------------------------------------------------------------------

  private void phone() {
    Random r = new Random(SEED + 2);
    // Datafaker's own formats per locale (its numbers are made valid with libphonenumber).
    String[][] locales = {
      {"en-US", "12"}, {"en-GB", "8"}, {"de", "8"}, {"fr", "6"}, {"es", "4"}, {"it", "4"},
      {"nl", "4"}, {"en-IN", "4"}, {"en-AU", "4"}, {"pt-BR", "4"},
    };
    for (String[] l : locales) {
      Faker f = faker(l[0], 2);
      for (int k = 0; k < Integer.parseInt(l[1]); k++) {
        String p =
            switch (k % 3) {
              case 0 -> f.phoneNumber().phoneNumber();
              case 1 -> f.phoneNumber().cellPhone();
              default -> f.phoneNumber().phoneNumberInternational();
            };
        gen("phone/datafaker-" + l[0], pick(r, CONTACT), "phone", p, null);
      }
    }
    // One North American number, written seven ways: one secret, one value.
    Faker us = faker("en-US", 3);
    for (int k = 0; k < 10; k++) {
      String area = (2 + r.nextInt(8)) + us.numerify("##");
      String exch = (2 + r.nextInt(8)) + us.numerify("##");
      String line = us.numerify("####");
      String e164 = "+1" + area + exch + line;
      String[] ways = {
        area + exch + line,
        area + "-" + exch + "-" + line,
        "(" + area + ") " + exch + "-" + line,
        area + "." + exch + "." + line,
        area + " " + exch + " " + line,
        "+1 " + area + " " + exch + " " + line,
        "1-" + area + "-" + exch + "-" + line,
      };
      String[] fam = {"bare-10", "dashes", "parens", "dots", "spaces", "plus-1", "leading-1"};
      for (int w = 0; w < ways.length; w++) {
        gen("phone/nanp-" + fam[w], pick(r, CONTACT), "phone", ways[w], e164);
      }
    }
    hand("phone/nanp-7-local", "Call me on «phone=5550142|555-0142» if anything is off.");
    hand("phone/nanp-7-local", "My cell is «phone=8675309|867-5309».");
    hand("phone/nanp-7-local", "Reach the front desk at «phone=4561234|456-1234» after 9.");
    hand("phone/nanp-7-local", "dial «phone=5550199|555.0199» from any lobby phone");
    hand("phone/nanp-7-local", "Tel. «phone=3217788|321 7788» (home)");
    hand("phone/nanp-7-local", "call «phone=5550123|5550123» tonight");
    hand("phone/nanp-bare-10", "Call me on «phone=+14155550134|4155550134» any time.");
    hand("phone/nanp-bare-10", "his number: «phone=+12125550142|2125550142»");
    hand("phone/nanp-dashes", "Call «phone=+14155550134|415-555-0134».");
    hand("phone/nanp-parens", "Call «phone=+14155550134|(415) 555-0134» now");
    hand("phone/nanp-parens", "Call «phone=+14155550134|(415)555-0134» now");
    hand("phone/nanp-dots", "tel «phone=+12125550142|212.555.0142»");
    hand("phone/nanp-slash", "tel «phone=+14155550134|415/555-0134»");
    hand("phone/nanp-plus-1", "US «phone=+12125550142|+1 212 555 0142»");
    hand("phone/nanp-plus-1", "US «phone=+14155550134|+1 (415) 555-0134»");
    hand("phone/nanp-plus-1", "US «phone=+14155550134|+14155550134»");
    hand("phone/nanp-leading-1", "Toll free «phone=+18005550199|1-800-555-0199»!");
    hand("phone/nanp-leading-1", "Toll free «phone=+18005550199|1 (800) 555-0199»");
    hand("phone/extension", "Office: «phone=+14155550134|415-555-0134 ext. 12»");
    hand("phone/extension", "Office: «phone=+14155550134|(415) 555-0134 x 205»");
    hand("phone/extension", "Office: «phone=+442079460958|+44 20 7946 0958 ext 3»");
    hand("phone/extension", "Office: «phone=+14155550134|415.555.0134 extension 4417»");
    hand("phone/intl-plus", "London «phone=+442079460958|+44 20 7946 0958»");
    hand("phone/intl-plus", "Berlin «phone=+49301234567|+49 30 1234567»");
    hand("phone/intl-plus", "Berlin «phone=+49301234567|+49 (0)30 1234567»");
    hand("phone/intl-plus", "Paris «phone=+33123456789|+33 1 23 45 67 89»");
    hand("phone/intl-plus", "Tokyo «phone=+81312345678|+81 3-1234-5678»");
    hand("phone/intl-plus", "Mumbai «phone=+919876543210|+91 98765 43210»");
    hand("phone/intl-plus", "Sydney «phone=+61298765432|+61 2 9876 5432»");
    hand("phone/intl-plus", "Madrid «phone=+34912345678|+34 912 345 678»");
    hand("phone/intl-plus", "Rome «phone=+390612345678|+39 06 1234 5678»");
    hand("phone/intl-plus", "Amsterdam «phone=+31201234567|+31 20 123 4567»");
    hand("phone/intl-plus", "São Paulo «phone=+5511912345678|+55 11 91234-5678»");
    hand("phone/intl-plus", "Compact «phone=+4915112345678|+4915112345678»");
    hand("phone/intl-00", "Berlin «phone=+49301234567|0049 30 1234567»");
    hand("phone/intl-00", "London «phone=+442079460958|0044 20 7946 0958»");
    hand("phone/intl-00", "Paris «phone=+33123456789|00 33 1 23 45 67 89»");
    hand("phone/intl-00", "from the US dial «phone=+442079460958|011 44 20 7946 0958»");
    hand("phone/national-trunk", "London office «phone=+442079460958|020 7946 0958»");
    hand("phone/national-trunk", "Berlin office «phone=+49301234567|030 1234567»");
    hand("phone/national-trunk", "Berlin office «phone=+49301234567|(030) 1234567»");
    hand("phone/national-trunk", "mobile «phone=+447700900123|07700 900123»");
    hand("phone/national-trunk", "Handy «phone=+4915123456789|0151 23456789»");
    hand("phone/national-trunk", "Paris «phone|01 23 45 67 89»");
    hand("phone/dots-intl", "«phone=+442079460958|+44.20.7946.0958»");
    hand("phone/dots-intl", "«phone=+33123456789|+33.1.23.45.67.89»");
    hand("phone/slash", "Tel. «phone=+49301234567|030/1234567»");
    hand("phone/slash", "Tel. «phone=+49891234567|089 / 1234567»");
    hand("phone/unicode-dash", "Call «phone=+14155550134|415–555–0134»");
    hand("phone/unicode-dash", "Call «phone=+14155550134|415‑555‑0134»");
    hand("phone/unicode-dash", "Call «phone=+14155550134|415—555—0134»");
    hand("phone/unicode-dash", "Call «phone=+14155550134|415−555−0134»");
    hand("phone/unicode-space", "London «phone=+442079460958|+44\u00A020\u00A07946\u00A00958»");
    hand("phone/unicode-space", "Call «phone=+14155550134|415\u202F555\u202F0134»");
    hand("phone/unicode-space", "Berlin «phone=+49301234567|+49\u200930\u20091234567»");
    hand("phone/unicode-space", "Call «phone=+14155550134|(415)\u2003555-0134»");
    hand("phone/fullwidth", "Call «phone=+14155550134|４１５-５５５-０１３４»");
    hand("phone/fullwidth", "London «phone=+442079460958|＋４４ ２０ ７９４６ ０９５８»");
    hand("phone/fullwidth", "Call «phone=+14155550134|（415） 555-0134»");
    hand("phone/zero-width", "Call «phone=+14155550134|415-555\u200B-0134»");
    hand("phone/zero-width", "London «phone=+442079460958|+44 20 79\u200B46 0958»");
    hand("phone/zero-width", "Call «phone=+14155550134|4155\u200C550134»");
    hand("phone/zero-width", "Call «phone=+14155550134|415\u00AD555\u00AD0134»");
    hand("phone/other-digits", "Cairo «phone=+20227912345|+٢٠ ٢ ٢٧٩١٢٣٤٥»");
    hand("phone/other-digits", "Delhi «phone=+911123456789|+९१ ११ २३४५ ६७८९»");
    hand("phone/tel-uri", "<a href=\"tel:«phone=+14155550134|+14155550134»\">call</a>");
    hand("phone/tel-uri", "tel:«phone=+14155550134|415-555-0134»");
    hand("phone/spelled-out", "call five five five «phone|oh one four two» tonight");
    hand("phone/spelled-out", "my number is «phone|four one five, five five five, oh one three four»");
    // Near misses: numbers people write that are not phone numbers.
    for (String s :
        List.of(
            "Due 2024-03-15.",
            "Shipped on 15/03/2024.",
            "Filed 03.15.2024 by the clerk",
            "12/31/1999 at noon",
            "Logged 2024/03/15 10:54",
            "Date: Wed, 21 Aug 2002 10:54:46 -0500",
            "In 2002 we had 1999 members and 20000 dollars",
            "Upgrade to v2.14.1 first.",
            "Windows version 10.0.19045.3803",
            "kernel 5.15.0-91-generic",
            "build 1.2.3-4567",
            "Order #1234567 shipped",
            "Order #58213 shipped",
            "order no. 1000234571 shipped",
            "invoice INV-2024-000123",
            "ticket 4412987",
            "tracking 1Z999AA10123456784",
            "PO 45000123 approved",
            "Seattle, WA 98109",
            "ZIP 94103-1234",
            "10115 Berlin",
            "Total $1,234.56",
            "Total € 1.234,56",
            "USD 12 345 678 in revenue",
            "It costs 4,155,550.13 in total",
            "population 8 336 817",
            "ratio 123-456-789",
            "pi is 3.14159265",
            "UUID 123e4567-e89b-12d3-a456-426614174000",
            "ISBN 978-3-16-148410-0",
            "timestamp 1700000000",
            "error 0x80070005",
            "at 37.7749, -122.4194",
            "pages 123-456",
            "served 1999-2005",
            "+1 23",
            "room 101, floor 3",
            "the 2024-2025 season",
            "score 12:34",
            "lottery numbers 7 14 21 28 35 42")) {
      hand("phone/near-miss", s);
    }
  }

  // --- URL -----------------------------------------------------------------------------------

  private void url() {
    Random r = new Random(SEED + 3);
    Faker f = faker("en-US", 4);
    for (int k = 0; k < 20; k++) {
      String u = f.internet().url();
      gen("url/datafaker", pick(r, SEE), "url", u, u.toLowerCase(Locale.ROOT));
    }
    hand("url/http", "see «url=http://www.example.com/a?b=1|http://www.example.com/a?b=1».");
    hand("url/http", "(«url=https://example.org/path|https://Example.org/Path»)");
    hand("url/http", "«url=ftp://ftp.rpmfind.net/linux|ftp://ftp.rpmfind.net/linux»");
    hand("url/www", "visit «url=www.spamassassin.org|www.spamassassin.org», now");
    hand("url/www", "«url=www.example.co.uk/shop|WWW.Example.co.uk/shop»!");
    hand("url/bare-domain", "go to «url|example.com/reset?token=abc123» to reset");
    hand("url/bare-domain", "our portal «url|portal.example.org» is down");
    hand("url/obfuscated", "«url|hxxp://evil[.]example[.]com/payload»");
    hand("url/obfuscated", "«url|https://example[.]org/login»");
    hand("url/fullwidth", "«url|ｈｔｔｐｓ://example.com/a»");
    hand("url/zero-width", "«url|https://exa\u200Bmple.com/account/42»");
    hand("url/near-miss", "e.g. this one");
    hand("url/near-miss", "open file.txt and config.yaml");
    hand("url/near-miss", "we use node.js and vue.js");
    hand("url/near-miss", "http:// nothing here");
    hand("url/near-miss", "a www. b");
  }

  // --- IP addresses --------------------------------------------------------------------------

  private void ip() {
    Random r = new Random(SEED + 4);
    Faker f = faker("en-US", 5);
    for (int k = 0; k < 15; k++) {
      String a = f.internet().ipV4Address();
      gen("ipv4/datafaker", pick(r, SEE), "ipv4", a, a);
    }
    for (int k = 0; k < 15; k++) {
      String a = f.internet().ipV6Address();
      gen("ipv6/datafaker", pick(r, SEE), "ipv6", a, expand(a));
    }
    hand("ipv4/plain", "from «ipv4=192.168.0.1|192.168.0.1» and «ipv4=10.0.0.255|10.0.0.255».");
    hand("ipv4/port", "connect to «ipv4=10.1.2.3|10.1.2.3»:8080");
    hand("ipv4/cidr", "allow «ipv4=10.0.0.0|10.0.0.0»/24");
    hand("ipv4/in-url", "http://«ipv4=10.1.2.3|10.1.2.3»/x");
    hand("ipv4/fullwidth", "host «ipv4=192.168.0.1|１９２．１６８．０．１»");
    hand("ipv4/zero-width", "host «ipv4=192.168.0.1|192.168\u200B.0.1»");
    hand("ipv4/near-miss", "version 1.2.3.4 is out");
    hand("ipv4/near-miss", "256.1.1.1 and 1.2.3");
    hand("ipv4/near-miss", "OID 1.3.6.1.4.1.311");
    hand("ipv4/near-miss", "on 2002.08.21.10");
    hand("ipv6/plain", "addr «ipv6=2001:0db8:0000:0000:0000:0000:0000:0001|2001:db8::1» ok");
    hand("ipv6/plain", "«ipv6=fe80:0000:0000:0000:0202:b3ff:fe1e:8329|FE80:0:0:0:202:B3FF:FE1E:8329»");
    hand("ipv6/mapped", "mapped «ipv6=0000:0000:0000:0000:0000:ffff:c000:0280|::ffff:192.0.2.128»");
    hand("ipv6/bracket-port", "https://[«ipv6=2001:0db8:0000:0000:0000:0000:0000:0001|2001:db8::1»]:443/");
    hand("ipv6/zone", "ping «ipv6=fe80:0000:0000:0000:0000:0000:0000:0001|fe80::1»%eth0");
    hand("ipv6/near-miss", "at 10:54:46 -0500");
    hand("ipv6/near-miss", "use std::vector here");
    hand("ipv6/near-miss", "MAC 00:1A:2B:3C:4D:5E");
    hand("ipv6/near-miss", "ratio 1:2:3");
  }

  /** An IPv6 address as eight zero-padded lower-case groups, by the JDK's parser. */
  private static String expand(String a) {
    try {
      byte[] b = InetAddress.getByName(a).getAddress();
      StringBuilder s = new StringBuilder();
      for (int k = 0; k < 16; k += 2) {
        if (k > 0) {
          s.append(':');
        }
        s.append(String.format(Locale.ROOT, "%02x%02x", b[k] & 0xff, b[k + 1] & 0xff));
      }
      return s.toString();
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- cards ---------------------------------------------------------------------------------

  private void card() {
    Random r = new Random(SEED + 5);
    Faker f = faker("en-US", 6);
    String[] pay = {"Card: {}", "Charged to {} yesterday.", "Please refund {} in full.", "{} was declined"};
    for (int k = 0; k < 30; k++) {
      String c = f.finance().creditCard();
      gen("card/datafaker", pick(r, pay), "card", c, c.replaceAll("[^0-9]", ""));
    }
    hand("card/plain", "Visa «card=4012888888881881|4012888888881881»");
    hand("card/grouped", "Visa «card=4111111111111111|4111 1111 1111 1111»");
    hand("card/grouped", "MC «card=5555555555554444|5555-5555-5555-4444»");
    hand("card/grouped", "Amex «card=378282246310005|3782 822463 10005»");
    hand("card/unicode-space", "Visa «card=4111111111111111|4111\u00A01111\u00A01111\u00A01111»");
    hand("card/dots", "Visa «card=4111111111111111|4111.1111.1111.1111»");
    hand("card/fullwidth", "Visa «card=4111111111111111|４１１１ １１１１ １１１１ １１１１»");
    hand("card/zero-width", "Visa «card=4111111111111111|4111\u200B1111\u200B1111\u200B1111»");
    hand("card/near-miss", "4111 1111 1111 1112 failed the check");
    hand("card/near-miss", "ref 5555555555554440");
    hand("card/near-miss", "411111111111 is too short");
    hand("card/near-miss", "serial 1111111111111117");
    hand("card/near-miss", "4111-1111 1111-1111 mixed");
  }

  // --- names ---------------------------------------------------------------------------------

  private void name() {
    Random r = new Random(SEED + 6);
    String[][] locales = {
      {"en-US", "40"}, {"en-GB", "10"}, {"de", "8"}, {"fr", "8"}, {"es", "8"}, {"it", "8"},
      {"nl", "6"}, {"pl", "6"}, {"sv", "6"}, {"tr", "6"}, {"pt-BR", "6"}, {"en-IN", "6"},
    };
    for (String[] l : locales) {
      Faker f = faker(l[0], 7);
      for (int k = 0; k < Integer.parseInt(l[1]); k++) {
        String first = f.name().firstName();
        String last = f.name().lastName();
        String value = (first + " " + last).toLowerCase(Locale.ROOT);
        gen("name/datafaker-" + l[0], pick(r, PERSON), "name", first + " " + last, value);
      }
    }
    Faker en = faker("en-US", 8);
    String[] greet = {"Hi {},", "Dear {},", "Hello {}, thanks for writing.", "Thanks {}!"};
    for (int k = 0; k < 15; k++) {
      String first = en.name().firstName();
      gen("name/first-only", pick(r, greet), "name", first, first.toLowerCase(Locale.ROOT));
    }
    for (String loc : List.of("ja", "zh-CN", "ru")) {
      Faker f = faker(loc, 9);
      for (int k = 0; k < 4; k++) {
        gen("name/non-latin", pick(r, PERSON), "name", f.name().fullName(), null);
      }
    }
    hand("name/first-only", "Hi «name=ann|Ann», the March invoice is attached.");
    hand("name/title", "Please ask «name=smith|Mr. Smith» to call back.");
    hand("name/title", "«name=okafor|Dr. Okafor» signed the form.");
    hand("name/title", "«name=o'neill|Ms O'Neill» is on leave.");
    hand("name/title", "Dear «name=garcía|Mrs. García»,");
    hand("name/initials", "Approved by «name=smith|J. Smith».");
    hand("name/initials", "«name=john kennedy|John F. Kennedy» airport");
    hand("name/middle", "«name=mary parker|Mary Ellen Parker» called twice.");
    hand("name/lowercase", "talked to «name=john smith|john smith» about it");
    hand("name/lowercase", "ask «name=priya patel|priya patel» in finance");
    hand("name/allcaps", "CUSTOMER: «name=john smith|JOHN SMITH»");
    hand("name/allcaps", "ATTN «name=maria lopez|MARIA LOPEZ»");
    hand("name/last-first", "«name=john smith|Smith, John» (account owner)");
    hand("name/last-first", "Name: «name=anna müller|Müller, Anna»");
    hand("name/particles", "«name=anne-marie van der berg|Anne-Marie van der Berg» wrote back");
    hand("name/particles", "«name=sean o'connor|Sean O'Connor» called");
    hand("name/particles", "«name=ronald mcdonald|Ronald McDonald» visited");
    hand("name/particles", "«name=ludwig van beethoven|Ludwig van Beethoven» is on hold");
    hand("name/diacritics", "«name=josé garcía|José García» paid");
    hand("name/diacritics", "«name=zoë brontë|Zoë Brontë» asked");
    hand("name/diacritics", "«name=jürgen müller|Jürgen Müller» wrote");
    hand("name/diacritics", "«name=renée lefèvre|Renée Lefèvre» replied");
    hand("name/signature", "Best regards,\n«name=tom becker|Tom Becker»");
    hand("name/signature", "Cheers,\n«name=priya|Priya»");
    hand("name/signature", "-- «name=karl|Karl»");
    hand("name/unicode-space", "«name=josé quintanilla|José\u00A0Quintanilla» called");
    hand("name/unicode-space", "«name=anna berg|Anna\u2003Berg» called");
    hand("name/zero-width", "«name=john smith|Jo\u200Bhn Smith» called");
    hand("name/zero-width", "«name=anna berg|Anna Be\u00ADrg» called");
    hand("name/fullwidth", "«name=john smith|Ｊｏｈｎ Ｓｍｉｔｈ» called");
    hand("name/decomposed", "«name=josé garcía|Jose\u0301 Garci\u0301a» called");
    for (String s :
        List.of(
            "Will you send it today?",
            "May I ask what happened?",
            "Grace period ends in April.",
            "Bill the customer for March.",
            "We stayed at the Rose Garden Hotel.",
            "Pay with Apple Pay or Google Pay.",
            "Windows Update failed again.",
            "The Summer Sale starts June 3.",
            "Christmas Eve is a holiday.",
            "Virginia Beach office is closed.",
            "The Jenkins build is green.",
            "Thank You for your patience.",
            "Dear Customer, your order has shipped.",
            "Hi Team, the deploy is done.",
            "Hello World example fails",
            "Best Regards from the Support Team",
            "New York and Los Angeles offices",
            "Microsoft Teams meeting link",
            "Amazon Web Services outage",
            "Please Note: the Service Level Agreement changed.",
            "General Manager approval pending",
            "The Golden Gate Bridge was foggy.",
            "Saint Patrick's Day parade",
            "Victoria Station is closed.",
            "Harley Davidson motorcycles",
            "Mark the ticket as resolved.",
            "Frank feedback from the audit",
            "Chase Bank statement attached",
            "Ford Focus service due",
            "Jordan is a country in the Middle East.")) {
      hand("name/near-miss", s);
    }
  }

  // --- what pii does not cover ---------------------------------------------------------------

  private void uncovered() {
    Random r = new Random(SEED + 7);
    Faker f = faker("en-US", 10);
    for (int k = 0; k < 8; k++) {
      gen("iban/datafaker", "Please transfer it to {} today.", "iban", f.finance().iban(), null);
      gen("ssn/datafaker", "SSN on file: {}", "ssn", f.idNumber().ssnValid(), null);
      gen("address/datafaker", "Ship to {} please.", "address", f.address().fullAddress(), null);
      String dob =
          String.format(
              Locale.ROOT, "%d-%02d-%02d", 1940 + r.nextInt(65), 1 + r.nextInt(12), 1 + r.nextInt(28));
      gen("dob/datafaker", "Date of birth: {}", "dob", dob, null);
    }
  }
}
