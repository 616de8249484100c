package dev.secpe.core.secret;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberMatch;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;
import com.google.i18n.phonenumbers.PhoneNumberUtil.PhoneNumberFormat;
import com.google.i18n.phonenumbers.PhoneNumberUtil.ValidationResult;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Phone numbers through Google's libphonenumber ({@code PhoneNumberUtil.findNumbers}), which knows
 * every region's numbering plan and accepts the ways people write numbers: any grouping by spaces,
 * dots, slashes, hyphens and Unicode dashes, parentheses, {@code +} or an international call prefix
 * ({@code 00}, {@code 011}), a national trunk prefix ({@code 0}), an extension, and digits of any
 * script (fullwidth, Arabic-Indic, Devanagari, ...).
 *
 * <p>The text is searched in passes: first as if written in {@link #possibleRegion} at {@link
 * Leniency#POSSIBLE} (the length fits that region's plan: recall first, so a North American
 * {@code 4155550134} or a local {@code 555-0142} is found), then in each of {@link #validRegions} at
 * {@link Leniency#VALID} (only numbers valid there, so that a national {@code 020 7946 0958} is
 * found as British without every 8-digit amount becoming a German number). Where passes overlap,
 * the longest span wins, then a number valid in its region, then the earlier pass.
 *
 * <p>The value is the number in E.164 ({@code +442079460958}): one number is one secret however it
 * is written, the extension dropped. A local number with no area code (North America's 7-digit
 * {@code 555-0142}) cannot be put in E.164: its value is its digits alone ({@code 5550142}), so it is
 * a secret of its own, apart from the same line written with its area code.
 */
final class PhoneNumbers implements Serializable {

  private static final long serialVersionUID = 1L;

  /** The region whose national numbers are taken at {@link Leniency#POSSIBLE}. */
  static final String POSSIBLE_REGION = "US";

  /**
   * The regions whose national numbers (written with their trunk prefix, without a country code)
   * are found when valid there: Europe's and the largest other numbering plans. Numbers written
   * with {@code +} or an international prefix are found whatever their country.
   */
  static final List<String> VALID_REGIONS =
      List.of(
          "GB", "DE", "FR", "ES", "IT", "NL", "BE", "CH", "AT", "IE", "PT", "PL", "SE", "NO", "DK",
          "FI", "AU", "NZ", "IN", "BR", "MX", "JP", "ZA");

  /** A run with fewer digits than this (of any script) is not searched: no phone number is that short. */
  static final int MIN_DIGITS = 7;

  private final String possibleRegion;
  private final List<String> validRegions;
  private final Leniency possibleLeniency;

  PhoneNumbers(String possibleRegion, List<String> validRegions, Leniency possibleLeniency) {
    this.possibleRegion = possibleRegion;
    this.validRegions = List.copyOf(validRegions);
    this.possibleLeniency = Objects.requireNonNull(possibleLeniency, "possibleLeniency");
  }

  /** The default: {@value #POSSIBLE_REGION} at POSSIBLE, {@link #VALID_REGIONS} at VALID. */
  static PhoneNumbers recallFirst() {
    return new PhoneNumbers(POSSIBLE_REGION, VALID_REGIONS, Leniency.POSSIBLE);
  }

  private record Candidate(int start, int end, String value, int pass) {
    int length() {
      return end - start;
    }
  }

  /** Adds the phone numbers in {@code text} (kind {@code kind}) to {@code out}. */
  void find(String text, String kind, List<SecretMatch> out) {
    PhoneNumberUtil util = PhoneNumberUtil.getInstance();
    List<Candidate> all = new ArrayList<>();
    for (int[] w : windows(text)) {
      String part = text.substring(w[0], w[1]);
      int pass = 0;
      if (possibleRegion != null) {
        collect(util, part, w[0], possibleRegion, possibleLeniency, true, pass++, all);
      }
      for (String region : validRegions) {
        collect(util, part, w[0], region, Leniency.VALID, false, pass++, all);
      }
    }
    all.sort(
        Comparator.comparingInt(Candidate::length)
            .reversed()
            .thenComparingInt(Candidate::pass)
            .thenComparingInt(Candidate::start));
    List<Candidate> kept = new ArrayList<>();
    for (Candidate c : all) {
      boolean free = true;
      for (Candidate k : kept) {
        if (c.start() < k.end() && k.start() < c.end()) {
          free = false;
          break;
        }
      }
      if (free) {
        kept.add(c);
      }
    }
    for (Candidate c : kept) {
      out.add(new SecretMatch(kind, c.value(), c.start(), c.end()));
    }
  }

  /** Characters of a run of digits that may be one phone number, beside the digits themselves. */
  private static boolean joins(char c) {
    return Character.isSpaceChar(c)
        || Character.getType(c) == Character.DASH_PUNCTUATION
        || "./()（）+＋\u2212\u200B\u200C\u200D\u2060\u00AD\uFEFF".indexOf(c) >= 0;
  }

  /** Context kept on each side of a run: a "tel:" before, an extension after. */
  private static final int BEFORE = 8;

  private static final int AFTER = 24;

  /**
   * The stretches of {@code text} worth a libphonenumber pass: each run of digits (of any script)
   * and the separators people write between them, holding at least {@link #MIN_DIGITS} digits,
   * widened by {@link #BEFORE} and {@link #AFTER} characters and merged where they overlap. Prose
   * without such a run costs one scan; a long e-mail is searched only where it has numbers.
   */
  static List<int[]> windows(String text) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      if (!Character.isDigit(text.charAt(i))) {
        i++;
        continue;
      }
      int start = i;
      int end = i;
      int digits = 0;
      int k = i;
      while (k < n && (Character.isDigit(text.charAt(k)) || joins(text.charAt(k)))) {
        if (Character.isDigit(text.charAt(k))) {
          digits++;
          end = k + 1;
        }
        k++;
      }
      i = Math.max(k, i + 1);
      if (digits < MIN_DIGITS) {
        continue;
      }
      int from = Math.max(0, start - BEFORE);
      int to = Math.min(n, end + AFTER);
      if (!out.isEmpty() && out.get(out.size() - 1)[1] >= from) {
        out.get(out.size() - 1)[1] = to;
      } else {
        out.add(new int[] {from, to});
      }
    }
    return out;
  }

  private static void collect(
      PhoneNumberUtil util,
      String text,
      int offset,
      String region,
      Leniency leniency,
      boolean shaped,
      int pass,
      List<Candidate> out) {
    for (PhoneNumberMatch m : util.findNumbers(text, region, leniency, Long.MAX_VALUE)) {
      if (NOT_A_PHONE.matcher(m.rawString()).matches() || insideIdentifier(text, m.start(), m.end())) {
        continue;
      }
      PhoneNumber n = m.number();
      String national = util.getNationalSignificantNumber(n);
      if (shaped
          && n.getCountryCode() == 1
          && !util.isValidNumber(n)
          && !NANP_SHAPE.matcher(national).matches()
          && !writtenWithCountryCode(util, m.rawString(), region)) {
        continue;
      }
      String value =
          util.isPossibleNumberWithReason(n) == ValidationResult.IS_POSSIBLE_LOCAL_ONLY
              ? national
              : util.format(n, PhoneNumberFormat.E164);
      out.add(new Candidate(offset + m.start(), offset + m.end(), value, pass));
    }
  }

  /**
   * The North American Numbering Plan's form of a number that is possible but not (yet) valid: an
   * area code and an exchange code that start with 2 to 9 ({@code NXX-NXX-XXXX}), or a local
   * {@code NXX-XXXX}. A national {@code 030 1234567} or an order number {@code 1234567} has
   * the length of a North American number but not its form.
   */
  private static final Pattern NANP_SHAPE = Pattern.compile("[2-9]\\d{2}[2-9]\\d{6}|[2-9]\\d{6}");

  /**
   * Spellings that have a phone number's length but are something else people write: a dotted
   * quad (an IPv4 address, a version), a date with its year (2024-03-15, 15.03.2024), a range of
   * years (2024-2025), decimal numbers (37.7749, "0.455 2.727"). libphonenumber itself already
   * skips dates and times with slashes and colons.
   */
  private static final Pattern NOT_A_PHONE =
      Pattern.compile(
          "\\d{1,3}(?:\\.\\d{1,3}){3,}"
              + "|(?:19|20)\\d\\d([-./])(?:0?[1-9]|1[0-2])\\1(?:0?[1-9]|[12]\\d|3[01])"
              + "|(?:0?[1-9]|[12]\\d|3[01])([-./])(?:0?[1-9]|[12]\\d|3[01])\\2(?:19|20)\\d\\d"
              + "|(?:19|20)\\d\\d[-/](?:19|20)\\d\\d"
              + "|\\d{1,3}\\.\\d+(?:\\h+\\d{1,3}\\.\\d+)*");

  /**
   * Digits that are part of a word, a URL or an identifier ("s2121250", "/2240487.stm",
   * "#85483723", ",8640496,"): a Latin letter, one of {@code / # = _ , % & ? @} or a digit and a
   * full stop right before,
   * or a Latin letter, {@code / @ _}, or a full stop followed by a letter or digit right after.
   * Letters of other scripts may touch a number ("電話03-1234-5678").
   */
  static boolean insideIdentifier(String text, int start, int end) {
    if (start > 0) {
      char b = text.charAt(start - 1);
      if (latinLetter(b) || "/#=_,%&?@".indexOf(b) >= 0) {
        return true;
      }
      if (b == '.' && start > 1 && Character.isDigit(text.charAt(start - 2))) {
        return true; // the decimals of "0.363636363636"
      }
    }
    if (end < text.length()) {
      char a = text.charAt(end);
      if (latinLetter(a) || "/@_".indexOf(a) >= 0) {
        return true;
      }
      if (a == '.' && end + 1 < text.length() && Character.isLetterOrDigit(text.charAt(end + 1))) {
        return true;
      }
    }
    return false;
  }

  private static boolean latinLetter(char c) {
    return Character.isLetter(c) && Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN;
  }

  private static boolean writtenWithCountryCode(PhoneNumberUtil util, String raw, String region) {
    try {
      return util.parseAndKeepRawInput(raw, region).getCountryCodeSource()
          != PhoneNumber.CountryCodeSource.FROM_DEFAULT_COUNTRY;
    } catch (NumberParseException e) {
      return false;
    }
  }

  /** The library's version: its metadata decides which numbers are valid. */
  static String libraryVersion() {
    try (InputStream in =
        PhoneNumberUtil.class.getResourceAsStream(
            "/META-INF/maven/com.googlecode.libphonenumber/libphonenumber/pom.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** What decides the matches: the library's version, the regions and the leniencies. */
  List<String> configuration() {
    return List.of(
        "libphonenumber=" + libraryVersion(),
        "nanp-shape=" + NANP_SHAPE.pattern(),
        "not-a-phone=" + NOT_A_PHONE.pattern(),
        "possible=" + possibleRegion + ":" + possibleLeniency,
        "valid=" + String.join(",", validRegions));
  }
}
