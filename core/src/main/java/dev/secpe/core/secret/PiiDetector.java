package dev.secpe.core.secret;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PII detection, local and deterministic: regular expressions for e-mail addresses, URLs, IP
 * addresses and card numbers, Google's libphonenumber for phone numbers. Each {@link PiiKind} has
 * its pattern and, where the pattern alone is too loose, a validation step (Luhn for cards, each
 * region's numbering plan for phones, group structure for IPv6). Within one kind, a match lying
 * inside a longer match is dropped; matches of different kinds may overlap (a URL holding an IP
 * address yields both).
 *
 * <p>The patterns match on the normalised view of the text that every built-in detector matches
 * on, never on the raw text: compatibility normalisation (NFKC: fullwidth "ｏｐｓ＠ｅｘａｍｐｌｅ．ｃｏｍ" and
 * fullwidth digits are ASCII there), full case folding, every default-ignorable code point removed
 * (a zero-width space or soft hyphen inside an address or a number), every Unicode whitespace
 * character counted as whitespace and every decimal digit of any script as its ASCII digit. A
 * value is canonical in that view (an e-mail address, a URL and an IPv6 address lower-cased, a
 * phone number in E.164, a card number its digits), so every spelling of one address or number is one secret; a
 * span is where the match stands in the scanned text.
 *
 * <p>It errs towards recall where SecPE's split makes a miss costly (a record whose secret is
 * missed is used exactly): a bare 10-digit number that fits the North American plan is a phone
 * number, order number or not. It still misses PII that is written unusually ("john [at] example
 * [dot] com"), and flags some non-PII (a version string "1.2.3.4" is an IPv4 address to it): its
 * recall and precision per spelling are measured in docs/detector-recall.md. For higher recall plug
 * in an external service through {@link SecretDetectors#fromPiiService}.
 */
public final class PiiDetector extends InProcessDetector {

  private static final long serialVersionUID = 1L;

  private static final Pattern EMAIL =
      Pattern.compile(
          "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+"
              + "[A-Za-z]{2,63}(?![A-Za-z0-9-])");
  private static final Pattern URL =
      Pattern.compile(
          "(?i)(?<![\\w@])(?:(?:https?|ftp)://|www\\.)[^\\s<>\"'`{}|\\\\^\\[\\]]+");
  private static final String OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
  private static final Pattern IPV4 =
      Pattern.compile("(?<![\\d.])" + OCTET + "(?:\\." + OCTET + "){3}(?!\\.?\\d)");
  private static final Pattern IPV6_CANDIDATE =
      Pattern.compile(
          "(?<![0-9A-Za-z:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}"
              + "(?:(?<=:)\\d{1,3}(?:\\.\\d{1,3}){3})?(?![0-9A-Za-z:]|\\.\\d)");
  private static final Pattern CARD =
      Pattern.compile("(?<![\\d-])[2-6]\\d{3}(?:[ -]?\\d){9,15}(?![\\d])");

  /** Phone numbers: libphonenumber, recall first ({@link PhoneNumbers#recallFirst}). */
  private static final PhoneNumbers PHONES = PhoneNumbers.recallFirst();

  private final Set<PiiKind> kinds;

  private PiiDetector(Set<PiiKind> kinds) {
    super("pii-regex");
    this.kinds = kinds;
  }

  /** A detector of every {@link PiiKind}. */
  public static PiiDetector all() {
    return new PiiDetector(EnumSet.allOf(PiiKind.class));
  }

  /**
   * A detector of the given kinds.
   *
   * @throws IllegalArgumentException if {@code kinds} is empty
   */
  public static PiiDetector of(Set<PiiKind> kinds) {
    Objects.requireNonNull(kinds, "kinds");
    if (kinds.isEmpty()) {
      throw new IllegalArgumentException("PII detector needs at least one kind");
    }
    return new PiiDetector(EnumSet.copyOf(kinds));
  }

  /** The kinds this detector looks for. */
  public Set<PiiKind> kinds() {
    return EnumSet.copyOf(kinds);
  }

  @Override
  void find(String text, List<SecretMatch> all) { // text: the view
    // Cheap necessary conditions first: each pattern needs these characters to match at all.
    int digits = 0;
    int dots = 0;
    int colons = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digits++;
      } else if (c == '.') {
        dots++;
      } else if (c == ':') {
        colons++;
      }
    }
    for (PiiKind k : kinds) {
      List<SecretMatch> found = new ArrayList<>();
      switch (k) {
        case EMAIL -> {
          if (text.indexOf('@') >= 0) {
            emails(text, found);
          }
        }
        case PHONE -> PHONES.find(text, PiiKind.PHONE.kind(), found);
        case URL -> {
          if (text.contains("://") || containsIgnoreCase(text, "www.")) {
            urls(text, found);
          }
        }
        case IPV4 -> {
          if (dots >= 3 && digits >= 4) {
            ipv4(text, found);
          }
        }
        case IPV6 -> {
          if (colons >= 6 || text.contains("::")) {
            ipv6(text, found);
          }
        }
        case CREDIT_CARD -> {
          if (digits >= 13) {
            cards(text, found);
          }
        }
      }
      all.addAll(dropContained(found));
    }
    all.sort(Comparator.comparingInt(SecretMatch::start).thenComparingInt(SecretMatch::end));
  }

  private static boolean containsIgnoreCase(String text, String needle) {
    for (int i = 0; i + needle.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, needle, 0, needle.length())) {
        return true;
      }
    }
    return false;
  }

  private static void emails(String text, List<SecretMatch> out) {
    Matcher m = EMAIL.matcher(text);
    while (m.find()) {
      out.add(
          new SecretMatch(
              PiiKind.EMAIL.kind(), m.group().toLowerCase(Locale.ROOT), m.start(), m.end()));
    }
  }

  private static void urls(String text, List<SecretMatch> out) {
    Matcher m = URL.matcher(text);
    while (m.find()) {
      int end = m.end();
      // Trailing sentence punctuation and an unbalanced closing bracket are not part of a URL.
      while (end > m.start() && ".,;:!?)>'\"".indexOf(text.charAt(end - 1)) >= 0) {
        end--;
      }
      String url = text.substring(m.start(), end);
      if (url.length() <= "www.".length() || url.endsWith("://")) {
        continue;
      }
      out.add(new SecretMatch(PiiKind.URL.kind(), url.toLowerCase(Locale.ROOT), m.start(), end));
    }
  }

  private static void ipv4(String text, List<SecretMatch> out) {
    Matcher m = IPV4.matcher(text);
    while (m.find()) {
      out.add(new SecretMatch(PiiKind.IPV4.kind(), m.group(), m.start(), m.end()));
    }
  }

  private static void ipv6(String text, List<SecretMatch> out) {
    Matcher m = IPV6_CANDIDATE.matcher(text);
    while (m.find()) {
      String expanded = expandIpv6(m.group());
      if (expanded != null) {
        out.add(new SecretMatch(PiiKind.IPV6.kind(), expanded, m.start(), m.end()));
      }
    }
  }

  /**
   * The address as eight lower-case 4-digit groups, or null if {@code s} is not a valid IPv6
   * text form (RFC 4291 §2.2). Purely syntactic: never resolves anything.
   */
  static String expandIpv6(String s) {
    String head = s;
    if (s.indexOf('.') >= 0) {
      int lastColon = s.lastIndexOf(':');
      String[] v4 = s.substring(lastColon + 1).split("\\.", -1);
      if (v4.length != 4) {
        return null;
      }
      int[] o = new int[4];
      for (int k = 0; k < 4; k++) {
        if (!v4[k].matches("25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d")) {
          return null;
        }
        o[k] = Integer.parseInt(v4[k]);
      }
      head =
          s.substring(0, lastColon + 1)
              + Integer.toHexString(o[0] * 256 + o[1])
              + ":"
              + Integer.toHexString(o[2] * 256 + o[3]);
    }
    int dc = head.indexOf("::");
    if (dc >= 0 && head.indexOf("::", dc + 1) >= 0) {
      return null;
    }
    List<String> groups = new ArrayList<>();
    if (dc >= 0) {
      List<String> left = splitGroups(head.substring(0, dc));
      List<String> right = splitGroups(head.substring(dc + 2));
      if (left == null || right == null) {
        return null;
      }
      int missing = 8 - left.size() - right.size();
      if (missing < 1) {
        return null;
      }
      if (left.size() + right.size() < 2) {
        return null; // "::" or "::1"-like fragments are too ambiguous in prose
      }
      groups.addAll(left);
      for (int k = 0; k < missing; k++) {
        groups.add("0");
      }
      groups.addAll(right);
    } else {
      List<String> all = splitGroups(head);
      if (all == null || all.size() != 8) {
        return null;
      }
      groups.addAll(all);
    }
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < 8; k++) {
      if (k > 0) {
        b.append(':');
      }
      String g = groups.get(k);
      b.append("0000".substring(g.length())).append(g.toLowerCase(Locale.ROOT));
    }
    return b.toString();
  }

  private static List<String> splitGroups(String s) {
    List<String> out = new ArrayList<>();
    if (s.isEmpty()) {
      return out;
    }
    for (String g : s.split(":", -1)) {
      if (g.isEmpty() || g.length() > 4 || !g.matches("[0-9A-Fa-f]+")) {
        return null;
      }
      out.add(g);
    }
    return out;
  }

  private static void cards(String text, List<SecretMatch> out) {
    Matcher m = CARD.matcher(text);
    while (m.find()) {
      String raw = m.group();
      // Separators, if any, must all be the same char and never doubled.
      char sep = 0;
      boolean ok = true;
      for (int k = 0; k < raw.length(); k++) {
        char c = raw.charAt(k);
        if (c == ' ' || c == '-') {
          if (sep != 0 && c != sep) {
            ok = false;
            break;
          }
          sep = c;
        }
      }
      String digits = digitsOf(raw);
      if (!ok || digits.length() < 13 || digits.length() > 19 || !Luhn.isValid(digits)) {
        continue;
      }
      out.add(new SecretMatch(PiiKind.CREDIT_CARD.kind(), digits, m.start(), m.end()));
    }
  }

  private static String digitsOf(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c >= '0' && c <= '9') {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** Removes matches lying inside another (longer or equal, earlier) match of the same list. */
  private static List<SecretMatch> dropContained(List<SecretMatch> found) {
    if (found.size() < 2) {
      return found;
    }
    found.sort(
        Comparator.comparingInt(SecretMatch::start)
            .thenComparing(Comparator.comparingInt(SecretMatch::end).reversed()));
    List<SecretMatch> kept = new ArrayList<>();
    int coveredTo = -1;
    for (SecretMatch m : found) {
      if (m.end() <= coveredTo) {
        continue;
      }
      kept.add(m);
      coveredTo = Math.max(coveredTo, m.end());
    }
    return kept;
  }

  /**
   * The version of what the patterns do not say: validation (Luhn, digit counts, IPv6 groups),
   * values and the text view matched. Raise it with any change to them; a change of a pattern
   * changes {@link #configuration()} by itself.
   */
  static final int RULES_VERSION = 3;

  /**
   * The kinds, every pattern's source, {@link #RULES_VERSION} and the view's version: what decides
   * the matches.
   */
  @Override
  public String configuration() {
    List<String> parts = new ArrayList<>();
    parts.add("rules=" + RULES_VERSION);
    parts.add(viewConfiguration());
    for (PiiKind k : kinds) {
      parts.add("kind=" + k.name());
    }
    for (Pattern p : List.of(EMAIL, URL, IPV4, IPV6_CANDIDATE, CARD)) {
      parts.add(p.pattern());
    }
    parts.addAll(PHONES.configuration());
    return SecretDetectors.configurationOf("pii-regex", parts);
  }

  @Override
  public String toString() {
    return "PiiDetector" + kinds;
  }
}
