package dev.secpe.core;

import java.util.Objects;

/**
 * A class label of a record, e.g. "spam" or "ham".
 *
 * @param name the label's name, not blank
 */
public record Label(String name) implements Comparable<Label> {

  /** Validates eagerly. */
  public Label {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("label name must not be blank");
    }
  }

  /** The label called {@code name}. */
  public static Label of(String name) {
    return new Label(name);
  }

  @Override
  public int compareTo(Label other) {
    return name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return name;
  }
}
