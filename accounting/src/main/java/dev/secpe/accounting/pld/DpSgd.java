package dev.secpe.accounting.pld;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Preconditions;
import java.util.Objects;

/**
 * DP-SGD with Poisson sampling ({@code q = batchSize / datasetSize}), Gaussian noise multiplier
 * sigma on clipped gradients (sensitivity 1), {@code steps} steps: epsilon from sigma and the
 * least sigma for a target (epsilon, delta).
 *
 * <p>{@link Accountant#PLD} (the default) composes the two-direction PLD of {@link
 * PrivacyLossDistribution#poissonSubsampledGaussian}, from interval {@link #PLD_INTERVAL} and
 * refined by {@link PldAccountant} until its pessimistic and optimistic bounds agree;
 * {@link Accountant#RDP} uses {@link RdpAccountant}, looser and independent, as a cross-check.
 * The calibrated sigma is the upper end of a bisection bracket of relative width
 * {@link #SIGMA_TOLERANCE}, so its epsilon (as computed by the chosen accountant) never exceeds
 * the target.
 */
public final class DpSgd {

  /** Relative width of the bisection bracket at which {@link #noiseMultiplier} stops. */
  public static final double SIGMA_TOLERANCE = 1e-4;

  /** Discretisation interval of the PLD accountant here (nats). */
  public static final double PLD_INTERVAL = 1e-3;

  private DpSgd() {}

  /** Which accountant composes the steps. */
  public enum Accountant {
    /** Privacy-loss distribution (connect-the-dots, FFT); tight. The default. */
    PLD,
    /** Rényi DP of the sampled Gaussian with the Balle et al. 2020 conversion; looser. */
    RDP
  }

  /** The epsilon at {@code delta} of DP-SGD with noise multiplier {@code sigma}. */
  public static double epsilon(
      long datasetSize, int batchSize, int steps, double sigma, double delta, Accountant accountant) {
    double q = samplingRate(datasetSize, batchSize);
    Preconditions.checkPositive("steps", steps);
    Preconditions.checkPositive("sigma", sigma);
    Preconditions.checkOpenUnit("delta", delta);
    Objects.requireNonNull(accountant, "accountant");
    return epsilonAt(q, steps, sigma, delta, accountant);
  }

  private static double epsilonAt(double q, int steps, double sigma, double delta, Accountant a) {
    if (a == Accountant.RDP) {
      return RdpAccountant.epsilon(q, sigma, steps, delta);
    }
    return PldAccountant.refine(composition(q, steps, sigma), p -> p.epsilon(delta),
        p -> p.finiteEpsilon(delta), PldAccountant.DEFAULT_RELATIVE_GAP, PldOptions.withInterval(PLD_INTERVAL)).upper();
  }

  private static PldAccountant.Composition composition(double q, int steps, double sigma) {
    return o -> PrivacyLossDistribution.poissonSubsampledGaussian(sigma, q, o).selfCompose(steps);
  }

  /** Whether epsilon at delta is at most {@code eps}: at the coarse interval when that settles it. */
  private static boolean meets(double q, int steps, double sigma, double delta, double eps, Accountant a) {
    if (a == Accountant.PLD) {
      double coarse = composition(q, steps, sigma).at(PldOptions.withInterval(PLD_INTERVAL)).epsilon(delta);
      if (coarse <= eps) {
        return true;
      }
    }
    return epsilonAt(q, steps, sigma, delta, a) <= eps;
  }

  /** The least noise multiplier (within {@link #SIGMA_TOLERANCE}, rounded up) meeting the budget. */
  public static double noiseMultiplier(
      long datasetSize, int batchSize, int steps, DpBudget budget, Accountant accountant) {
    double q = samplingRate(datasetSize, batchSize);
    Preconditions.checkPositive("steps", steps);
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(accountant, "accountant");
    double eps = budget.epsilon();
    double delta = budget.delta();
    if (!(eps > 0) || !(delta > 0)) {
      throw new IllegalArgumentException(
          "DP-SGD needs epsilon > 0 and delta > 0, got epsilon=" + eps + " delta=" + delta);
    }
    double hi = 1.0;
    while (!meets(q, steps, hi, delta, eps, accountant)) {
      hi *= 2;
      if (hi > 1e6) {
        throw new IllegalStateException(
            "no noise multiplier up to 1e6 meets epsilon=" + eps + " delta=" + delta);
      }
    }
    double lo = hi / 2;
    while (meets(q, steps, lo, delta, eps, accountant)) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-3) {
        return hi;
      }
    }
    while (hi - lo > SIGMA_TOLERANCE * hi) {
      double mid = 0.5 * (lo + hi);
      if (meets(q, steps, mid, delta, eps, accountant)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private static double samplingRate(long datasetSize, int batchSize) {
    Preconditions.checkPositive("datasetSize", datasetSize);
    Preconditions.checkPositive("batchSize", batchSize);
    if (batchSize > datasetSize) {
      throw new IllegalArgumentException(
          "batchSize must not exceed datasetSize, got batchSize=" + batchSize
              + " datasetSize=" + datasetSize);
    }
    return (double) batchSize / datasetSize;
  }
}
