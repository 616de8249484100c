package dev.secpe.core;

import java.util.Objects;
import java.util.Optional;

/**
 * One record of a public corpus: its text is freely readable (and may be sent to generators,
 * clustered and counted without privacy cost).
 *
 * @param id a unique id within its corpus, not blank
 * @param text the text, not blank
 * @param label the label, if any
 */
public record PublicRecord(String id, String text, Optional<Label> label) {

  /** Validates eagerly. */
  public PublicRecord {
    Ids.require(id, "record");
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("public record '" + id + "' has blank text");
    }
    Objects.requireNonNull(label, "label");
  }

  /** An unlabelled record. */
  public static PublicRecord of(String id, String text) {
    return new PublicRecord(id, text, Optional.empty());
  }

  /** A labelled record. */
  public static PublicRecord of(String id, String text, Label label) {
    return new PublicRecord(id, text, Optional.of(label));
  }
}
