package dev.secpe.accounting.secret;

import org.hipparchus.special.Erf;

/** Standard normal tails for this package (erfc based, accurate in the tails). */
final class Gauss {

  private static final double SQRT2 = Math.sqrt(2.0);

  private Gauss() {}

  /** 1 - Phi(z). */
  static double upper(double z) {
    return 0.5 * Erf.erfc(z / SQRT2);
  }

  /** Phi(z). */
  static double cdf(double z) {
    return 0.5 * Erf.erfc(-z / SQRT2);
  }

  /** Phi^{-1}(1 - p), accurate for small p. */
  static double upperQuantile(double p) {
    return SQRT2 * Erf.erfcInv(2.0 * p);
  }
}
