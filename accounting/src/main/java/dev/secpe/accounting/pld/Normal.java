package dev.secpe.accounting.pld;

import org.hipparchus.special.Erf;

/** Standard normal tail functions, accurate in the tails (erfc based). Package-private. */
final class Normal {

  private static final double SQRT2 = Math.sqrt(2.0);

  private Normal() {}

  /** Upper tail 1 - Phi(z), computed as erfc(z / sqrt 2) / 2 so that it keeps relative accuracy. */
  static double upper(double z) {
    return 0.5 * Erf.erfc(z / SQRT2);
  }

  /** Phi(z). */
  static double cdf(double z) {
    return 0.5 * Erf.erfc(-z / SQRT2);
  }

  /** Phi(z2) - Phi(z1) for z1 <= z2, computed from the tail that keeps relative accuracy. */
  static double interval(double z1, double z2) {
    if (!(z2 > z1)) {
      return 0.0;
    }
    if (z1 >= 0) {
      return upper(z1) - upper(z2);
    }
    if (z2 <= 0) {
      return cdf(z2) - cdf(z1);
    }
    return 1.0 - upper(z2) - cdf(z1);
  }

  /** Phi^{-1}(p) for p in (0, 1). */
  static double quantile(double p) {
    return -SQRT2 * Erf.erfcInv(2.0 * p);
  }

  /** Phi^{-1}(1 - p), accurate for small p. */
  static double upperQuantile(double p) {
    return SQRT2 * Erf.erfcInv(2.0 * p);
  }
}
