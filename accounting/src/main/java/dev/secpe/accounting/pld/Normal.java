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
    return p <= 0.5 ? -upperQuantile(p) : upperQuantile(1.0 - p);
  }

  /**
   * Phi^{-1}(1 - p): Hipparchus' erfcInv is accurate down to p ~ 1e-16 but returns infinity
   * below (it computes erfInv(1 - x)); there we start from the asymptotic expansion and polish
   * with Newton steps on log Phibar(z) = log p, Phibar from erfc being accurate to ~1e-308.
   */
  static double upperQuantile(double p) {
    if (p >= 1e-15) {
      double z = SQRT2 * Erf.erfcInv(2.0 * p);
      return p < 0.01 ? polish(z, p) : z;
    }
    if (!(p > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    double l = -2.0 * Math.log(p);
    return polish(Math.sqrt(l - Math.log(l) - Math.log(2 * Math.PI)), p);
  }

  private static double polish(double z, double p) {
    double logP = Math.log(p);
    for (int i = 0; i < 60; i++) {
      double tail = upper(z);
      if (!(tail > 0)) {
        break;
      }
      double density = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
      double step = (Math.log(tail) - logP) * tail / density;
      z += step;
      if (Math.abs(step) <= 1e-15 * z) {
        break;
      }
    }
    return z;
  }
}
