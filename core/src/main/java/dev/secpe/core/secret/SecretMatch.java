package dev.secpe.core.secret;

import java.util.Objects;

/**
 * One occurrence of a secret in a text, as a {@link SecretDetector} reports it. The value is
 * private: {@link #toString()} prints only the kind and the span, and {@link SecretIndex} turns
 * values into keyed hash ids straight away.
 */
public final class SecretMatch {

  private final String kind;
  private final String value;
  private final int start;
  private final int end;

  /**
   * A match.
   *
   * @param kind the kind, e.g. "email"; not blank
   * @param value the normalised value: two matches with equal kind and value are the same secret
   *     (e.g. a lower-cased e-mail address, a phone number's digits); not empty
   * @param start the first char of the match in the scanned text
   * @param end one past the last char; {@code start <= end}
   */
  public SecretMatch(String kind, String value, int start, int end) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(value, "value");
    if (kind.isBlank()) {
      throw new IllegalArgumentException("secret kind must not be blank");
    }
    if (value.isEmpty()) {
      throw new IllegalArgumentException("secret value of kind '" + kind + "' must not be empty");
    }
    if (start < 0 || end < start) {
      throw new IllegalArgumentException(
          "secret span must satisfy 0 <= start <= end, got start=" + start + " end=" + end);
    }
    this.kind = kind;
    this.value = value;
    this.start = start;
    this.end = end;
  }

  /** The kind. */
  public String kind() {
    return kind;
  }

  /** The normalised value. Private: never log it. */
  public String value() {
    return value;
  }

  /** Start of the span in the scanned text. */
  public int start() {
    return start;
  }

  /** End (exclusive) of the span in the scanned text. */
  public int end() {
    return end;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SecretMatch m
        && m.kind.equals(kind)
        && m.value.equals(value)
        && m.start == start
        && m.end == end;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, value, start, end);
  }

  /** {@code SecretMatch[kind, redacted, start-end]}. */
  @Override
  public String toString() {
    return "SecretMatch[" + kind + ", redacted, " + start + "-" + end + "]";
  }
}
