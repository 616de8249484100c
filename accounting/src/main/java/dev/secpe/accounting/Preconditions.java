package dev.secpe.accounting;

/**
 * The one place where privacy parameters are validated.
 *
 * <p>Every comparison is written so that NaN fails it ({@code !(x > 0)} rather than
 * {@code x <= 0}); every message names the parameter and the value it was given, e.g.
 * {@code "r must exceed p, got p=0.001 r=0.0001"}.
 */
public final class Preconditions {

  private Preconditions() {}

  /** Requires a finite value strictly greater than zero. */
  public static double checkPositive(String name, double value) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(
          name + " must be finite and > 0, got " + name + "=" + value);
    }
    return value;
  }

  /** Requires a finite value greater than or equal to zero. */
  public static double checkNonNegative(String name, double value) {
    if (!(value >= 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(
          name + " must be finite and >= 0, got " + name + "=" + value);
    }
    return value;
  }

  /** Requires a value in the open interval (0, 1). */
  public static double checkOpenUnit(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException(name + " must be in (0, 1), got " + name + "=" + value);
    }
    return value;
  }

  /** Requires a value in the closed interval [0, 1]. */
  public static double checkUnit(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], got " + name + "=" + value);
    }
    return value;
  }

  /** Requires a value in the half-open interval (0, 1]. */
  public static double checkProbabilityPositive(String name, double value) {
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(name + " must be in (0, 1], got " + name + "=" + value);
    }
    return value;
  }

  /** Requires a finite value (any sign). */
  public static double checkFinite(String name, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be finite, got " + name + "=" + value);
    }
    return value;
  }

  /** Requires an integer >= 1. */
  public static int checkPositive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, got " + name + "=" + value);
    }
    return value;
  }

  /** Requires a long >= 1. */
  public static long checkPositive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, got " + name + "=" + value);
    }
    return value;
  }
}
