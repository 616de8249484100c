package dev.secpe.core.secret;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Person names, in process, from a gazetteer: the given names the US Social Security Administration
 * recorded at least 100 times from 1880 to 2024 (40,213 names, public domain), and the words the
 * library's public corpora write in lower case (11,295), which make a given name such as "Will",
 * "Grace" or "Mark" ambiguous. Secret kind {@value #KIND}.
 *
 * <p>A name is found as
 *
 * <ul>
 *   <li>a capitalised (or all-capitals) given name followed by a surname: "Priya Patel", "JOHN
 *       SMITH", with middle names or initials ("John F. Kennedy") and particles ("Anne-Marie van
 *       der Berg"); after an ambiguous given name the surname must not be a common word, so "Rose
 *       Garden" is not a name but "Will Smith" is;
 *   <li>a title and a surname, with or without a given name: "Mr. Smith", "Dr Okafor", "Mrs.
 *       García";
 *   <li>a surname, a comma and a given name: "Smith, John";
 *   <li>a given name alone ("Ann"), unless it is ambiguous or a month or weekday; those count only
 *       after a greeting ("Hi Will,") or as a signature;
 *   <li>any capitalised word that is not a common word after a greeting ("Dear Okonkwo,") or as a
 *       signature ("-- Karl", "Best regards,\nTom Becker").
 * </ul>
 *
 * <p>Value: the given name and the surname, lower-cased and in NFC, middle names, initials and
 * titles dropped ("john kennedy"); the surname alone where no given name is written ("Mr. Smith":
 * "smith"); the given name alone where no surname is ("ann"). One person written in these three
 * ways is three secrets: the detector cannot know they are one.
 *
 * <p>It errs towards recall, as SecPE's split needs, but does not flag every capitalised word: on
 * the labelled recall set (docs/detector-recall.md) it misses names in lower case, names written
 * in non-Latin scripts and surnames alone without a title, and it flags some places and brands
 * that are written like names ("Virginia Beach", "Harley Davidson").
 */
public final class NameDetector extends InProcessDetector {

  private static final long serialVersionUID = 1L;

  /** The secret kind of a name. */
  public static final String KIND = "name";

  /**
   * The version of the rules above (titles, particles, greetings, what counts as a surname, the
   * value): raise it with any change to them. The word lists are named by their digest.
   */
  static final int RULES_VERSION = 2;

  private static final Pattern TOKEN =
      Pattern.compile("[\\p{L}\\p{M}]+(?:['’\\-][\\p{L}\\p{M}]+)*");

  private static final Set<String> TITLES =
      Set.of(
          "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "madam", "madame", "mme",
          "mlle", "herr", "frau", "sr", "sra", "srta");
  private static final Set<String> PARTICLES =
      Set.of(
          "van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la",
          "le", "ter", "ten", "bin", "ibn", "al", "el", "y");
  private static final Set<String> GREETINGS =
      Set.of("hi", "hello", "hey", "dear", "thanks", "thank", "cheers", "attn", "regards", "bye");
  private static final Set<String> NEVER_ALONE =
      Set.of(
          "january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
          "friday", "saturday", "sunday", "i");

  private NameDetector() {
    super("names");
  }

  /** The detector (stateless: its word lists are loaded once per class loader). */
  public static NameDetector create() {
    Lists.GIVEN.size(); // load now: a missing list fails here, not in the middle of a run
    return new NameDetector();
  }

  /** The word lists, read from this package's resources on first use. */
  private static final class Lists {
    static final Set<String> GIVEN = new HashSet<>();
    static final Set<String> COMMON = new HashSet<>();
    static final String DIGEST;

    static {
      try {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        read("given-names.txt", GIVEN, md);
        read("common-words.txt", COMMON, md);
        DIGEST = HexFormat.of().formatHex(md.digest());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 unavailable", e);
      }
    }

    private static void read(String name, Set<String> into, MessageDigest md) {
      try (InputStream in = NameDetector.class.getResourceAsStream(name)) {
        if (in == null) {
          throw new IllegalStateException("NameDetector: resource " + name + " is missing");
        }
        byte[] bytes = in.readAllBytes();
        md.update(bytes);
        BufferedReader r =
            new BufferedReader(
                new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
          if (!line.isEmpty() && !line.startsWith("#")) {
            into.add(line);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("NameDetector: cannot read " + name, e);
      }
    }
  }

  private enum Case {
    CAPITALISED,
    UPPER,
    OTHER
  }

  private record Token(int start, int end, String text, String key, Case casing) {
    boolean initial() {
      return text.codePointCount(0, text.length()) == 1 && casing != Case.OTHER;
    }
  }

  /**
   * Names in the normalised view, with each word's case read from the text as written (the view
   * is case-folded, and a name is told from a common word by its capital).
   */
  @Override
  void find(TextView view, List<SecretMatch> out) {
    find(view.text(), tokens(view.text(), view), out);
  }

  /** Names in {@code text} as it is (its own case). */
  @Override
  void find(String text, List<SecretMatch> out) {
    find(text, tokens(text, null), out);
  }

  private static void find(String text, List<Token> tokens, List<SecretMatch> out) {
    int i = 0;
    while (i < tokens.size()) {
      int next = title(text, tokens, i, out);
      if (next < 0) {
        next = lastFirst(text, tokens, i, out);
      }
      if (next < 0) {
        next = givenFirst(text, tokens, i, out);
      }
      if (next < 0) {
        next = greeted(text, tokens, i, out);
      }
      i = next < 0 ? i + 1 : next;
    }
  }

  /**
   * The words of {@code text}; a word inside an identifier ("Chris.Garrigues@DeepEddy.Com",
   * "J.Smith@", a path or a handle) is left out: it is not prose, and an e-mail address or URL is
   * another detector's.
   */
  private static List<Token> tokens(String text, TextView view) {
    List<Token> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      String t = m.group();
      if (!embedded(text, m.start(), m.end())) {
        String written = view == null ? t : view.original(m.start(), m.end());
        out.add(new Token(m.start(), m.end(), t, key(t), casing(written)));
      }
    }
    return out;
  }

  private static boolean embedded(String text, int start, int end) {
    if (start > 0) {
      char b = text.charAt(start - 1);
      if ("@_/\\:#".indexOf(b) >= 0 || Character.isLetterOrDigit(b)) {
        return true;
      }
      if (b == '.' && start > 1 && Character.isLetterOrDigit(text.charAt(start - 2))) {
        return true;
      }
    }
    if (end < text.length()) {
      char a = text.charAt(end);
      if ("@_/\\".indexOf(a) >= 0 || Character.isDigit(a)) {
        return true;
      }
      if (a == '.' && end + 1 < text.length() && Character.isLetterOrDigit(text.charAt(end + 1))) {
        return true;
      }
    }
    return false;
  }

  /** The lookup key: lower case, accents removed ("Jürgen" is "jurgen", as the SSA writes it). */
  static String key(String token) {
    String d = Normalizer.normalize(token, Normalizer.Form.NFD);
    StringBuilder b = new StringBuilder(d.length());
    for (int k = 0; k < d.length(); k++) {
      char c = d.charAt(k);
      if (Character.getType(c) != Character.NON_SPACING_MARK) {
        b.append(c);
      }
    }
    return b.toString().toLowerCase(Locale.ROOT).replace('’', '\'');
  }

  private static Case casing(String t) {
    int first = t.codePointAt(0);
    if (!Character.isUpperCase(first) && !Character.isTitleCase(first)) {
      return Case.OTHER;
    }
    boolean lower = false;
    boolean upper = false;
    for (int k = Character.charCount(first); k < t.length(); k++) {
      char c = t.charAt(k);
      lower |= Character.isLowerCase(c);
      upper |= Character.isUpperCase(c);
    }
    if (lower) {
      return Case.CAPITALISED;
    }
    return upper || t.length() == Character.charCount(first) ? Case.UPPER : Case.CAPITALISED;
  }

  private static boolean given(Token t) {
    if (t.casing() == Case.OTHER || t.initial()) {
      return false;
    }
    if (Lists.GIVEN.contains(t.key())) {
      return true;
    }
    int dash = t.key().indexOf('-');
    return dash > 0 && Lists.GIVEN.contains(t.key().substring(0, dash));
  }

  private static boolean ambiguous(Token t) {
    return Lists.COMMON.contains(t.key()) || NEVER_ALONE.contains(t.key());
  }

  /** Only horizontal whitespace (and, after an initial, its full stop) between two tokens. */
  private static boolean adjacent(String text, Token a, Token b) {
    int k = a.end();
    if (a.initial() && k < b.start() && text.charAt(k) == '.') {
      k++;
    }
    if (k == b.start()) {
      return false;
    }
    for (; k < b.start(); k++) {
      char c = text.charAt(k);
      if (!Character.isSpaceChar(c) && c != '\t') {
        return false;
      }
    }
    return true;
  }

  /** A token that may be (part of) a surname after {@code first}, in the same casing. */
  private static boolean surnameLike(Token first, Token t) {
    if (t.initial() || NEVER_ALONE.contains(t.key()) || TITLES.contains(t.key())) {
      return false;
    }
    return first.casing() == Case.UPPER ? t.casing() == Case.UPPER : t.casing() == Case.CAPITALISED;
  }

  /**
   * The surname starting at token {@code k} (particles, then a token shaped like {@code first}), as
   * the index one past it, or -1. The caller has checked that token {@code k} follows its
   * predecessor closely.
   */
  private static int surname(String text, List<Token> ts, int k, Token first) {
    int j = k;
    while (j + 1 < ts.size()
        && PARTICLES.contains(ts.get(j).key())
        && ts.get(j).casing() == Case.OTHER
        && adjacent(text, ts.get(j), ts.get(j + 1))) {
      j++;
    }
    return j < ts.size() && surnameLike(first, ts.get(j)) ? j + 1 : -1;
  }

  private static String value(String text, int start, int end) {
    return Normalizer.normalize(
        text.substring(start, end).replaceAll("\\s+", " ").toLowerCase(Locale.ROOT),
        Normalizer.Form.NFC);
  }

  private static SecretMatch match(String text, Token given, Token surnameFrom, Token last, int start) {
    String v = value(text, surnameFrom.start(), last.end());
    if (given != null) {
      v = value(text, given.start(), given.end()) + " " + v;
    }
    return new SecretMatch(KIND, v, start, last.end());
  }

  /** "Mr. Smith", "Dr Jane Okafor", "Mrs. García". */
  private static int title(String text, List<Token> ts, int i, List<SecretMatch> out) {
    Token t = ts.get(i);
    if (t.casing() == Case.OTHER || !TITLES.contains(t.key()) || i + 1 >= ts.size()) {
      return -1;
    }
    Token n = ts.get(i + 1);
    if (!text.substring(t.end(), n.start()).matches("\\.?\\h+")
        || NEVER_ALONE.contains(n.key())
        || (Lists.COMMON.contains(n.key()) && !given(n))) {
      return -1;
    }
    Token shape = n.casing() == Case.UPPER ? n : new Token(0, 1, "X", "x", Case.CAPITALISED);
    if (given(n) && i + 2 < ts.size() && adjacent(text, n, ts.get(i + 2))) {
      int end = surname(text, ts, i + 2, shape);
      if (end > 0) {
        out.add(match(text, n, ts.get(i + 2), ts.get(end - 1), t.start()));
        return end;
      }
    }
    int end = surname(text, ts, i + 1, shape);
    if (end < 0) {
      return -1;
    }
    out.add(match(text, null, n, ts.get(end - 1), t.start()));
    return end;
  }

  /** "Smith, John". */
  private static int lastFirst(String text, List<Token> ts, int i, List<SecretMatch> out) {
    if (i + 1 >= ts.size()) {
      return -1;
    }
    Token s = ts.get(i);
    Token g = ts.get(i + 1);
    if (s.casing() != Case.CAPITALISED
        || ambiguous(s)
        || !given(g)
        || ambiguous(g)
        || greeting(text, ts, i)) {
      return -1;
    }
    String between = text.substring(s.end(), g.start());
    if (!between.matches(",\\h+")) {
      return -1;
    }
    if (g.casing() != Case.CAPITALISED) {
      return -1;
    }
    if (i + 2 < ts.size() && adjacent(text, g, ts.get(i + 2)) && surnameLike(g, ts.get(i + 2))) {
      return -1; // "Smith, John Brown and ...": a list, not one name
    }
    out.add(new SecretMatch(KIND, value(text, g.start(), g.end()) + " " + value(text, s.start(), s.end()), s.start(), g.end()));
    return i + 2;
  }

  /** "Priya Patel", "John F. Kennedy", "Anne-Marie van der Berg", "Thomas Paul", "Ann". */
  private static int givenFirst(String text, List<Token> ts, int i, List<SecretMatch> out) {
    Token g = ts.get(i);
    if (!given(g)) {
      return -1;
    }
    boolean amb = ambiguous(g);
    // Middle names and initials: "Mary Ellen Parker", "John F. Kennedy".
    int k = i + 1;
    int lastMiddle = -1;
    while (k < ts.size() && k - i <= 3 && adjacent(text, ts.get(k - 1), ts.get(k))) {
      Token m = ts.get(k);
      if (m.initial() && m.casing() != Case.OTHER) {
        k++;
      } else if (given(m) && surnameLike(g, m)) {
        lastMiddle = k;
        k++;
      } else {
        break;
      }
    }
    int end = k < ts.size() && adjacent(text, ts.get(k - 1), ts.get(k)) ? surname(text, ts, k, g) : -1;
    int from = k;
    if (end > 0 && amb && Lists.COMMON.contains(ts.get(end - 1).key())) {
      end = -1; // "Rose Garden", "Chase Bank"
    }
    if (end < 0 && lastMiddle > 0) {
      end = lastMiddle + 1; // "Thomas Paul": the last given name is the surname
      from = lastMiddle;
    }
    if (end > 0) {
      out.add(match(text, g, ts.get(from), ts.get(end - 1), g.start()));
      return end;
    }
    if ((g.casing() == Case.UPPER || amb) && !greeting(text, ts, i) && !signature(text, ts, i)) {
      return -1;
    }
    out.add(new SecretMatch(KIND, value(text, g.start(), g.end()), g.start(), g.end()));
    return i + 1;
  }

  /** "Dear Okonkwo,", "-- Karl": a capitalised word the gazetteer does not know, by its place. */
  private static int greeted(String text, List<Token> ts, int i, List<SecretMatch> out) {
    Token t = ts.get(i);
    if (t.casing() != Case.CAPITALISED || t.initial() || ambiguous(t) || TITLES.contains(t.key())) {
      return -1;
    }
    if (!greeting(text, ts, i) && !signature(text, ts, i)) {
      return -1;
    }
    int end = i + 1;
    if (i + 1 < ts.size() && adjacent(text, t, ts.get(i + 1))) {
      int s = surname(text, ts, i + 1, t);
      if (s > 0 && !Lists.COMMON.contains(ts.get(s - 1).key())) {
        end = s;
      }
    }
    out.add(new SecretMatch(KIND, value(text, t.start(), ts.get(end - 1).end()), t.start(), ts.get(end - 1).end()));
    return end;
  }

  /** A greeting word just before token {@code i}: "Hi Will", "Thanks, Mark", "Dear Okonkwo". */
  private static boolean greeting(String text, List<Token> ts, int i) {
    if (i == 0) {
      return false;
    }
    Token p = ts.get(i - 1);
    if (!GREETINGS.contains(p.key())) {
      return false;
    }
    String between = text.substring(p.end(), ts.get(i).start());
    return between.matches(",?\\h+");
  }

  /** Token {@code i} starts a line after a sign-off line ("Best regards,") or after "-- ". */
  private static boolean signature(String text, List<Token> ts, int i) {
    int start = ts.get(i).start();
    int lineStart = text.lastIndexOf('\n', start - 1) + 1;
    String before = text.substring(lineStart, start);
    if (before.matches("\\h*(?:--|—|–)\\h*")) {
      return true;
    }
    if (!before.isBlank() || lineStart == 0) {
      return false;
    }
    int prevEnd = lineStart - 1;
    int prevStart = text.lastIndexOf('\n', prevEnd - 1) + 1;
    String prevLine = text.substring(prevStart, prevEnd).strip();
    return prevLine.matches("(?i)(?:best|kind|warm)?\\s*(?:regards|wishes|thanks|cheers|sincerely|yours(?: truly| sincerely)?|thank you|best),?");
  }

  /** The rules' version and the digest of the word lists: what decides the matches. */
  @Override
  public String configuration() {
    Lists.GIVEN.size();
    return SecretDetectors.configurationOf(
        "names",
        List.of(
            "rules=" + RULES_VERSION,
            viewConfiguration(),
            "lists=" + Lists.DIGEST,
            "titles=" + new TreeSet<>(TITLES),
            "particles=" + new TreeSet<>(PARTICLES),
            "greetings=" + new TreeSet<>(GREETINGS),
            "never-alone=" + new TreeSet<>(NEVER_ALONE)));
  }

  @Override
  public String toString() {
    return "NameDetector[" + Lists.GIVEN.size() + " given names]";
  }
}
