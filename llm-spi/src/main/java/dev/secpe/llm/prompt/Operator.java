package dev.secpe.llm.prompt;

import java.util.Set;

/**
 * The evolution operators a prompt template can stand for, each with the placeholders its
 * template may use. A template using any other placeholder is rejected when it is built.
 *
 * <p>Placeholders: {@code {domain}} (a short description of the data, e.g. "a restaurant
 * review"), {@code {target_words}} (desired length in words), {@code {label}}, {@code
 * {keywords}} (comma separated), {@code {parent}} (the synthetic text to rewrite), {@code
 * {masked_parent}} (the parent with words replaced by "_"), {@code {first}} and {@code {second}}
 * (the two parents of a cross).
 */
public enum Operator {
  /** An unconditioned fresh sample (PE's random API). */
  RANDOM(Set.of("domain", "target_words")),
  /** A fresh sample conditioned on keywords only (CTCL's topic keywords). */
  KEYWORDS(Set.of("domain", "target_words", "keywords")),
  /** A fresh sample from private-data metadata: label, length and keywords (DPGA's generate). */
  METADATA(Set.of("domain", "target_words", "label", "keywords")),
  /** Fill the blanks of a masked parent (Aug-PE's variation; DPGA's fill mutation). */
  FILL_IN(Set.of("domain", "target_words", "label", "masked_parent")),
  /** Paraphrase a parent in another style (DPGA's rewrite mutation). */
  REWRITE(Set.of("domain", "target_words", "label", "parent")),
  /** Fuse two parents into one offspring (DPGA's cross). */
  CROSS(Set.of("domain", "target_words", "label", "first", "second"));

  private final Set<String> placeholders;

  Operator(Set<String> placeholders) {
    this.placeholders = placeholders;
  }

  /** The placeholders a template for this operator may use. */
  public Set<String> placeholders() {
    return placeholders;
  }
}
