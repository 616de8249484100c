package dev.secpe.accounting.pld;

import dev.secpe.accounting.RefNormal;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * The closed forms the PLD tests check the accountant against, computed with Hipparchus (not the
 * library's own normal), so that expected values do not come from the code under test. One copy
 * of each, shared by the tests of this package.
 */
final class ClosedForms {

  private static final NormalDistribution N = new NormalDistribution(0, 1);

  private ClosedForms() {}

  /**
   * delta(eps) of mu-GDP (Dong, Roth, Su 2022, Cor. 2.13), from Hipparchus' normal CDF; the second
   * term in log space, with the Mills-ratio series for the far tail (Abramowitz and Stegun
   * 26.2.12), so that it holds for eps beyond 700.
   */
  static double gaussianDelta(double mu, double eps) {
    return N.cumulativeProbability(-eps / mu + mu / 2) - Math.exp(eps + logUpperTail(eps / mu + mu / 2));
  }

  /** log P(Z > x) for a standard normal Z. */
  private static double logUpperTail(double x) {
    if (x < 30) {
      return Math.log(N.cumulativeProbability(-x));
    }
    double x2 = x * x;
    double series = 1 - 1 / x2 + 3 / (x2 * x2) - 15 / (x2 * x2 * x2) + 105 / (x2 * x2 * x2 * x2);
    return -x2 / 2 - Math.log(x * Math.sqrt(2 * Math.PI)) + Math.log(series);
  }

  /** The least eps with gaussianDelta <= delta, by bisection to 1e-13 relative. */
  static double gaussianEpsilon(double mu, double delta) {
    double lo = 0;
    double hi = 1;
    while (gaussianDelta(mu, hi) > delta) {
      hi *= 2;
    }
    if (gaussianDelta(mu, 0) <= delta) {
      return 0;
    }
    while (hi - lo > 1e-13 * hi) {
      double mid = 0.5 * (lo + hi);
      if (gaussianDelta(mu, mid) > delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /**
   * delta(eps) of the Poisson-subsampled Gaussian's remove direction, P = (1-q) N(0, s^2) +
   * q N(1, s^2) against Q = N(0, s^2): the likelihood ratio 1 - q + q e^{(x - 1/2)/s^2} rises with
   * x, so delta(eps) = P(X > x*) - e^eps Q(X > x*) with x* = s^2 log((e^eps - 1 + q)/q) + 1/2 where
   * e^eps exceeds 1 - q, and 1 - e^eps (the whole line) where it does not.
   */
  static double subsampledRemoveDelta(double q, double s, double eps) {
    double e = Math.exp(eps);
    if (e <= 1 - q) {
      return 1 - e;
    }
    double x = s * s * Math.log((e - 1 + q) / q) + 0.5;
    return (1 - q) * RefNormal.upper(x / s) + q * RefNormal.upper((x - 1) / s) - e * RefNormal.upper(x / s);
  }
}
