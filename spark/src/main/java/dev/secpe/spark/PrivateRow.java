package dev.secpe.spark;

import java.io.Serializable;
import java.util.Objects;
import java.util.Optional;

/**
 * One private record as it travels in a Spark RDD: its text and, for labelled data, its label.
 * Serializable (Spark ships rows between JVMs), unlike {@link dev.secpe.core.PrivateText}, which
 * stays in one process; like it, {@link #toString()} never shows the text, so a row that reaches a
 * log line or an exception message shows only its length.
 */
public final class PrivateRow implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String text;
  private final String label;

  private PrivateRow(String text, String label) {
    this.text = Objects.requireNonNull(text, "text");
    if (label != null && label.isBlank()) {
      throw new IllegalArgumentException("label must not be blank when given");
    }
    this.label = label;
  }

  /** An unlabelled record. */
  public static PrivateRow of(String text) {
    return new PrivateRow(text, null);
  }

  /** A labelled record. */
  public static PrivateRow of(String text, String label) {
    return new PrivateRow(text, Objects.requireNonNull(label, "label"));
  }

  /** The text (private: for embedders and detectors on the executors only). */
  String text() {
    return text;
  }

  /** The label's name, if any. */
  Optional<String> label() {
    return Optional.ofNullable(label);
  }

  /** Shows the length and whether a label is present, never the text or the label. */
  @Override
  public String toString() {
    return "PrivateRow[redacted, " + text.length() + " chars" + (label == null ? "" : ", labelled") + "]";
  }
}
