package dev.secpe.accounting;

import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * The standard normal from Hipparchus, for tests: an implementation independent of {@link
 * StandardNormal}, so expected values do not come from the code under test. Accurate for the
 * moderate probabilities the tests use (not deep tails).
 */
public final class RefNormal {

  private static final NormalDistribution N = new NormalDistribution(0, 1);

  private RefNormal() {}

  /** Phi(z). */
  public static double cdf(double z) {
    return N.cumulativeProbability(z);
  }

  /** 1 - Phi(z), as erfc(z / sqrt 2) / 2 (relative accuracy in the upper tail). */
  public static double upper(double z) {
    return 0.5 * org.hipparchus.special.Erf.erfc(z / Math.sqrt(2));
  }

  /** Phi^{-1}(p). */
  public static double quantile(double p) {
    return N.inverseCumulativeProbability(p);
  }

  /** Phi^{-1}(1 - p), as -Phi^{-1}(p). */
  public static double upperQuantile(double p) {
    return -N.inverseCumulativeProbability(p);
  }
}
