package dev.secpe.llm.embedded;

/**
 * The builders' range checks, written once: each returns the value when it is in range and
 * otherwise throws an {@link IllegalArgumentException} naming the option and the value ("threads
 * must be >= 1, got threads=0").
 */
final class Checks {
  private Checks() {}

  /** {@code value >= min}. */
  static int atLeast(int min, int value, String option) {
    if (value < min) {
      throw new IllegalArgumentException(option + " must be >= " + min + ", got " + option + "=" + value);
    }
    return value;
  }

  /** {@code min <= value <= max}. */
  static int inRange(int min, int max, int value, String option) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          option + " must be in [" + min + ", " + max + "], got " + option + "=" + value);
    }
    return value;
  }

  /** {@code 0 <= p <= 1}; NaN is out of range. */
  static double probability(double p, String option) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(option + " must be in [0, 1], got " + option + "=" + p);
    }
    return p;
  }
}
