package dev.secpe.accounting.pld;

import dev.secpe.accounting.Preconditions;

/**
 * The Poisson-binomial distribution of {@code S = sum_i Bernoulli(p_i)}, computed by the stable
 * dynamic programme over the trials (every update is a convex combination, so no cancellation),
 * keeping only the support where mass is non-negligible. Immutable.
 *
 * <p>Mass cut from either end is reported as {@link #truncatedMass()}; accountants place it at
 * infinite privacy loss, which is pessimistic whichever end it came from.
 */
public final class PoissonBinomial {

  /** Mass below which an end of the support is cut while the programme runs. */
  public static final double DEFAULT_TAIL = 1e-18;

  private final int lowest;
  private final double[] pmf;
  private final double truncatedMass;

  private PoissonBinomial(int lowest, double[] pmf, double truncatedMass) {
    this.lowest = lowest;
    this.pmf = pmf;
    this.truncatedMass = truncatedMass;
  }

  /** The distribution for success probabilities {@code probs} (each in [0, 1]). */
  public static PoissonBinomial of(double[] probs) {
    return of(probs, DEFAULT_TAIL);
  }

  /**
   * The distribution for {@code probs}, cutting at most {@code tail} mass from each end at each
   * step (the total cut is reported, never dropped silently).
   */
  public static PoissonBinomial of(double[] probs, double tail) {
    Preconditions.checkNonNegative("tail", tail);
    double[] cur = new double[probs.length + 1];
    cur[0] = 1.0;
    int lo = 0;
    int hi = 0; // support is [lo, hi]
    double cut = 0;
    for (int i = 0; i < probs.length; i++) {
      double p = probs[i];
      Preconditions.checkUnit("shiftProbs[" + i + "]", p);
      if (p == 0) {
        continue;
      }
      double q = 1 - p;
      cur[hi + 1] = 0;
      for (int k = hi + 1; k > lo; k--) {
        cur[k] = cur[k] * q + cur[k - 1] * p;
      }
      cur[lo] *= q;
      hi++;
      while (hi > lo && cur[lo] <= tail && cut + cur[lo] <= 1e-9) {
        cut += cur[lo];
        cur[lo] = 0;
        lo++;
      }
      while (hi > lo && cur[hi] <= tail && cut + cur[hi] <= 1e-9) {
        cut += cur[hi];
        cur[hi] = 0;
        hi--;
      }
    }
    double[] out = new double[hi - lo + 1];
    System.arraycopy(cur, lo, out, 0, out.length);
    return new PoissonBinomial(lo, out, cut);
  }

  /** The smallest value of S kept. */
  public int lowest() {
    return lowest;
  }

  /** The number of values of S kept (lowest() .. lowest() + size() - 1). */
  public int size() {
    return pmf.length;
  }

  /** P(S = lowest() + k). */
  public double mass(int k) {
    return pmf[k];
  }

  /** A copy of the kept probabilities. */
  public double[] pmf() {
    return pmf.clone();
  }

  /** The mass cut from the ends. */
  public double truncatedMass() {
    return truncatedMass;
  }
}
