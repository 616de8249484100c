package dev.secpe.core.secret;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the caller's terms (project code names, customer names, ...) case-insensitively as whole
 * words: a match may not be preceded or followed by a letter, digit or underscore. Whitespace
 * inside a term matches any run of whitespace. The value of a match is the term lower-cased with
 * whitespace collapsed to one space, so "Project  Falcon" and "project falcon" are one secret.
 * Longer terms win where terms overlap.
 */
public final class DictionaryDetector extends InProcessDetector {

  private static final long serialVersionUID = 1L;

  private final String kind;
  private final List<String> terms;
  private final Pattern pattern;

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
    this.pattern =
        Pattern.compile(
            "(?<![\\p{L}\\p{N}_])(?:" + alt + ")(?![\\p{L}\\p{N}_])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
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
      if (t == null || t.isBlank()) {
        throw new IllegalArgumentException("dictionary term " + i + " is blank");
      }
      normalised.add(normalise(t));
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

  static String normalise(String term) {
    return term.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  /** The normalised terms. */
  public List<String> terms() {
    return terms;
  }

  @Override
  void find(String text, List<SecretMatch> out) {
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      out.add(new SecretMatch(kind, normalise(m.group()), m.start(), m.end()));
    }
  }

  /**
   * The version of how terms are matched and named (boundaries, case, whitespace, the text view):
   * raise it with any change to them.
   */
  static final int RULES_VERSION = 1;

  /** The kind, the terms (sorted) and {@link #RULES_VERSION}; never printed: terms may be sensitive. */
  @Override
  public String configuration() {
    List<String> parts = new ArrayList<>();
    parts.add("rules=" + RULES_VERSION);
    parts.add("kind=" + kind);
    terms.stream().sorted().forEach(parts::add);
    return SecretDetectors.configurationOf("dictionary", parts);
  }

  @Override
  public String toString() {
    return "DictionaryDetector[kind=" + kind + ", " + terms.size() + " terms]";
  }
}
