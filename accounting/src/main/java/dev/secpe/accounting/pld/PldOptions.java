package dev.secpe.accounting.pld;

import dev.secpe.accounting.Preconditions;
import java.util.Objects;

/**
 * Accuracy settings of the PLD accountant. Immutable.
 *
 * <p>A smaller {@code discretisationInterval} is tighter and slower (the number of bins grows as
 * its inverse). With {@link Estimate#PESSIMISTIC} (the default) the accountant is an upper bound
 * whatever the interval: discretisation, tail truncation and FFT rounding only ever raise delta.
 * With {@link Estimate#OPTIMISTIC} (or {@link Estimate#ROUNDED}) every one of them only ever lowers
 * it, so the two bracket the true value; {@link PldAccountant} refines the interval until they
 * agree.
 *
 * @param discretisationInterval the spacing h of the privacy-loss grid, in nats
 * @param tailMass the P-mass that may be cut from each tail after every composition step
 *     (pessimistic: the low tail is moved up onto the lowest loss kept, the high tail into the
 *     infinity mass; optimistic: both are dropped)
 * @param maxBins the largest grid a single mechanism may be discretised onto
 * @param estimate which side of the true privacy-loss distribution the discrete one lies on
 * @param tiltTarget NaN (the default), or the privacy loss, in nats, at which the composition's
 *     tail must be accurate (the epsilon sought, or the epsilon a delta is asked at): compositions
 *     are then convolved exponentially tilted towards it, so that the FFT's rounding error is
 *     relative to the tail there instead of to the bulk (see {@link PrivacyLossDistribution})
 * @param extendedPrecision whether tilted compositions are convolved in double-double arithmetic
 *     (about 106 bits, convolutions of up to 2^20 values; 5 to 8 times slower): for the tail of a
 *     composition that no single tilt puts at the tilted peak (a small sampling rate and a tiny
 *     delta); {@link PldAccountant} turns it on for a last pass where the bounds are still apart
 */
public record PldOptions(
    double discretisationInterval, double tailMass, int maxBins, Estimate estimate, double tiltTarget,
    boolean extendedPrecision) {

  /** The default interval, 1e-3 nats. */
  public static final double DEFAULT_INTERVAL = 1e-3;

  /** The default tail mass, 1e-15. */
  public static final double DEFAULT_TAIL_MASS = 1e-15;

  /** The default grid limit, 4,000,000 bins. */
  public static final int DEFAULT_MAX_BINS = 4_000_000;

  /** Which side of the true privacy-loss distribution a discretisation lies on. */
  public enum Estimate {
    /**
     * A dominating pair (connect-the-dots, Doroshenko et al. 2022): every delta, epsilon and
     * blow-up is an upper bound. What calibration and accounting use.
     */
    PESSIMISTIC,
    /**
     * A pair dominated by the true one (its delta a convex piecewise-linear minorant on the grid),
     * tails dropped: every delta, epsilon and blow-up is a lower bound. Only to measure how tight
     * the pessimistic value is.
     */
    OPTIMISTIC,
    /**
     * A lower bound for long compositions: each mechanism's losses are rounded to the grid by the
     * pessimistic side's connect-the-dots split (a rounding within the loss's own segment, mean
     * error at most h^2/4), composed as {@link #OPTIMISTIC} composes, and every delta, epsilon and
     * blow-up is shifted by a Hoeffding bound on the n roundings' sum: {@code epsilon(delta) >=
     * epsilon'(delta + eta) - h sqrt(n ln(1/eta)) - n h^2/4}. Its gap to the truth grows as
     * {@code h sqrt(n)}; {@link #OPTIMISTIC}'s can grow as {@code n h} where the losses are not
     * smooth on the scale of h (q = 0.01, sigma 0.5, 10^5 steps, delta 1e-3: epsilon 196.74 with
     * the optimistic bound at 189.6, the rounded one at 196.4). Only to measure how tight the
     * pessimistic value is; {@link PldAccountant} uses whichever is closer.
     */
    ROUNDED
  }

  /** Validates eagerly. */
  public PldOptions {
    Preconditions.checkPositive("discretisationInterval", discretisationInterval);
    if (!(discretisationInterval <= 1.0)) {
      throw new IllegalArgumentException(
          "discretisationInterval must be <= 1, got discretisationInterval="
              + discretisationInterval);
    }
    Preconditions.checkNonNegative("tailMass", tailMass);
    if (!(tailMass <= 1e-6)) {
      throw new IllegalArgumentException("tailMass must be <= 1e-6, got tailMass=" + tailMass);
    }
    Preconditions.checkPositive("maxBins", maxBins);
    Objects.requireNonNull(estimate, "estimate");
    if (Double.isInfinite(tiltTarget)) {
      throw new IllegalArgumentException("tiltTarget must be finite or NaN, got tiltTarget=" + tiltTarget);
    }
  }

  /** Options in double arithmetic. */
  public PldOptions(
      double discretisationInterval, double tailMass, int maxBins, Estimate estimate, double tiltTarget) {
    this(discretisationInterval, tailMass, maxBins, estimate, tiltTarget, false);
  }

  /** Options without a tilt target. */
  public PldOptions(double discretisationInterval, double tailMass, int maxBins, Estimate estimate) {
    this(discretisationInterval, tailMass, maxBins, estimate, Double.NaN);
  }

  /** Pessimistic options (the accountant's upper bound). */
  public PldOptions(double discretisationInterval, double tailMass, int maxBins) {
    this(discretisationInterval, tailMass, maxBins, Estimate.PESSIMISTIC);
  }

  /** Default interval, tail mass and grid limit; pessimistic. */
  public static PldOptions defaults() {
    return new PldOptions(DEFAULT_INTERVAL, DEFAULT_TAIL_MASS, DEFAULT_MAX_BINS);
  }

  /** The defaults with another discretisation interval. */
  public static PldOptions withInterval(double discretisationInterval) {
    return new PldOptions(discretisationInterval, DEFAULT_TAIL_MASS, DEFAULT_MAX_BINS);
  }

  /** These options with another discretisation interval. */
  public PldOptions interval(double discretisationInterval) {
    return new PldOptions(
        discretisationInterval, tailMass, maxBins, estimate, tiltTarget, extendedPrecision);
  }

  /** These options with the given estimate. */
  public PldOptions estimate(Estimate e) {
    return new PldOptions(discretisationInterval, tailMass, maxBins, e, tiltTarget, extendedPrecision);
  }

  /** These options with the given tilt target (NaN: none). */
  public PldOptions tiltTarget(double target) {
    return new PldOptions(discretisationInterval, tailMass, maxBins, estimate, target, extendedPrecision);
  }

  /** These options with tilted compositions in double-double arithmetic, or not. */
  public PldOptions extendedPrecision(boolean on) {
    return new PldOptions(discretisationInterval, tailMass, maxBins, estimate, tiltTarget, on);
  }

  /** Whether compositions are tilted (a tilt target is set). */
  public boolean tilted() {
    return !Double.isNaN(tiltTarget);
  }

  /** Whether this is a lower-bound estimate ({@link Estimate#OPTIMISTIC} or {@link Estimate#ROUNDED}). */
  public boolean optimistic() {
    return estimate != Estimate.PESSIMISTIC;
  }
}
