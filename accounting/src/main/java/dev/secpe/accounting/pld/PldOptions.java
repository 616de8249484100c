package dev.secpe.accounting.pld;

import dev.secpe.accounting.Preconditions;

/**
 * Accuracy settings of the PLD accountant. Immutable.
 *
 * <p>A smaller {@code discretisationInterval} is tighter (the connect-the-dots error shrinks
 * roughly quadratically in it) and slower (the number of bins grows as its inverse). Either way
 * the accountant stays pessimistic: discretisation, tail truncation and FFT rounding only ever
 * raise delta.
 *
 * @param discretisationInterval the spacing h of the privacy-loss grid, in nats
 * @param tailMass the P-mass that may be cut from each tail after every composition step; the
 *     low tail is moved up onto the lowest loss kept, the high tail into the infinity mass
 * @param maxBins the largest grid a single mechanism may be discretised onto
 */
public record PldOptions(double discretisationInterval, double tailMass, int maxBins) {

  /** The default interval, 1e-3 nats. */
  public static final double DEFAULT_INTERVAL = 1e-3;

  /** The default tail mass, 1e-15. */
  public static final double DEFAULT_TAIL_MASS = 1e-15;

  /** The default grid limit, 4,000,000 bins. */
  public static final int DEFAULT_MAX_BINS = 4_000_000;

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
  }

  /** Default interval, tail mass and grid limit. */
  public static PldOptions defaults() {
    return new PldOptions(DEFAULT_INTERVAL, DEFAULT_TAIL_MASS, DEFAULT_MAX_BINS);
  }

  /** The defaults with another discretisation interval. */
  public static PldOptions withInterval(double discretisationInterval) {
    return new PldOptions(discretisationInterval, DEFAULT_TAIL_MASS, DEFAULT_MAX_BINS);
  }
}
