package dev.secpe.core.secret;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the caller's terms (project code names, customer names, ...) as whole words, matching on
 * the normalised view of the text that every built-in detector matches on: compatibility
 * normalisation (NFKC: NFC and NFD spellings, fullwidth letters, ligatures are one), full case
 * folding ("ß" is "ss", "ſ" is "s", and "İ", "I", "ı" are all "i"), every default-ignorable code
 * point removed (zero-width space, ZWJ, soft hyphen, word joiner, byte-order mark, variation
 * selectors, ...), every Unicode whitespace character counted as whitespace, every decimal digit
 * as its ASCII digit. A term is put into the same view when the detector is built.
 *
 * <p>In the view, a match may not be preceded or followed by a letter, digit or underscore, and
 * whitespace inside a term matches any run of whitespace (a no-break or em space, a line break).
 * Longer terms win where terms overlap. The span of a match is where it stands in the scanned text
 * (invisible characters inside it included).
 *
 * <p>The value of a match is the term it matched, as {@link #terms()} lists it: the configured term
 * in the view, whitespace runs collapsed to one space. So "Project  Falcon", "PROJECT FALCON" with
 * a no-break space and "project falcon" are one secret, and a detector never names more secrets
 * than it has terms.
 *
 * <p>Not caught: a term written with homoglyphs from another script (Cyrillic "а" for Latin "a"),
 * with accents dropped or added, split by spaces or punctuation ("s e c r e t"), in leetspeak, or
 * misspelled.
 */
public final class DictionaryDetector extends InProcessDetector {

  private static final long serialVersionUID = 1L;

  private final String kind;
  private final List<String> terms;
  private final Pattern pattern;
  private final Set<String> termSet;

  private DictionaryDetector(String kind, List<String> terms) {
    super("dictionary");
    this.kind = kind;
    this.terms = terms;
    List<String> byLength = new ArrayList<>(terms);
    byLength.sort(Comparator.comparingInt(String::length).reversed().thenComparing(t -> t));
    StringBuilder alt = new StringBuilder();
    for (String t : byLength) {
      if (alt.length() > 0) {
        alt.append('|');
      }
      String[] parts = t.split(" ");
      for (int k = 0; k < parts.length; k++) {
        if (k > 0) {
          alt.append("\\s+");
        }
        alt.append(Pattern.quote(parts[k]));
      }
    }
    // No case flag: the view and the terms are case-folded already.
    this.pattern = Pattern.compile("(?<![\\p{L}\\p{N}_])(?:" + alt + ")(?![\\p{L}\\p{N}_])");
    this.termSet = Set.copyOf(terms);
  }

  /**
   * A detector of {@code terms}, reported with secret kind {@code kind}.
   *
   * @throws IllegalArgumentException if {@code kind} or a term is blank, or there are no terms
   */
  public static DictionaryDetector of(String kind, Collection<String> terms) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(terms, "terms");
    if (kind.isBlank()) {
      throw new IllegalArgumentException("dictionary kind must not be blank");
    }
    Set<String> normalised = new LinkedHashSet<>();
    int i = 0;
    for (String t : terms) {
      String n = t == null ? "" : normalise(t);
      if (n.isEmpty()) {
        boolean invisible = t != null && !t.isBlank();
        throw new IllegalArgumentException(
            "dictionary term " + i + " is blank" + (invisible ? " once invisible characters are removed" : ""));
      }
      normalised.add(n);
      i++;
    }
    if (normalised.isEmpty()) {
      throw new IllegalArgumentException("dictionary needs at least one term");
    }
    return new DictionaryDetector(kind, List.copyOf(normalised));
  }

  /** A detector of {@code terms} with kind "term". */
  public static DictionaryDetector of(Collection<String> terms) {
    return of("term", terms);
  }

  /**
   * {@code term} in the view the detectors match on ({@link TextView}), whitespace runs collapsed to
   * one space and stripped at both ends: a term's form in {@link #terms()}, and the value of a span
   * an external PII service reports.
   */
  static String normalise(String term) {
    return WHITESPACE.matcher(TextView.normalise(term)).replaceAll(" ").strip();
  }

  // After the view, all whitespace is ASCII, which \s matches.
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  /** The normalised terms, as the values of their matches: each configured term, in the view. */
  public List<String> terms() {
    return terms;
  }

  @Override
  void find(String view, List<SecretMatch> out) {
    Matcher m = pattern.matcher(view);
    while (m.find()) {
      // The matched view text is a term up to its whitespace runs: name the secret by that term.
      String term = WHITESPACE.matcher(m.group()).replaceAll(" ");
      if (!termSet.contains(term)) {
        throw new IllegalStateException(
            "dictionary matched a span that is none of its terms (a rules error), at view offset "
                + m.start());
      }
      out.add(new SecretMatch(kind, term, m.start(), m.end()));
    }
  }

  /**
   * The version of how terms are matched and named (boundaries, case, whitespace, the text view):
   * raise it with any change to them.
   */
  static final int RULES_VERSION = 2;

  /**
   * The kind, the terms (sorted), {@link #RULES_VERSION} and the view's version; never printed:
   * terms may be sensitive.
   */
  @Override
  public String configuration() {
    List<String> parts = new ArrayList<>();
    parts.add("rules=" + RULES_VERSION);
    parts.add(viewConfiguration());
    parts.add("kind=" + kind);
    terms.stream().sorted().forEach(parts::add);
    return SecretDetectors.configurationOf("dictionary", parts);
  }

  @Override
  public String toString() {
    return "DictionaryDetector[kind=" + kind + ", " + terms.size() + " terms]";
  }
}
