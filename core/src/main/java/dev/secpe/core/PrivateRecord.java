package dev.secpe.core;

import java.util.Objects;
import java.util.Optional;

/**
 * One record of the private dataset. Its text is a redacting {@link PrivateText}; its id and label
 * are not treated as secret text (ids should not embed content).
 *
 * @param id a unique id within its dataset, not blank
 * @param text the private text
 * @param label the label, if the data is labelled
 */
public record PrivateRecord(String id, PrivateText text, Optional<Label> label) {

  /** Validates eagerly. */
  public PrivateRecord {
    Ids.require(id, "record");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(label, "label");
  }

  /** An unlabelled record. */
  public static PrivateRecord of(String id, String text) {
    return new PrivateRecord(id, PrivateText.of(text), Optional.empty());
  }

  /** A labelled record. */
  public static PrivateRecord of(String id, String text, Label label) {
    return new PrivateRecord(id, PrivateText.of(text), Optional.of(label));
  }
}
