package dev.secpe.accounting.pld;

/**
 * A discretised privacy-loss distribution (PLD) of a dominating pair (P, Q), with pessimistic
 * rounding (Koskela et al. 2020; Doroshenko et al. 2022, "Connect the dots") and FFT
 * composition. Immutable.
 *
 * <p>Every reported epsilon, delta and blow-up is an upper bound for the true mechanism up to
 * the documented discretisation and truncation error, which is always on the pessimistic side.
 */
public final class PrivacyLossDistribution {

  private PrivacyLossDistribution() {}

  /** Gaussian mechanism with noise standard deviation {@code sigma} and L2 sensitivity. */
  public static PrivacyLossDistribution gaussian(double sigma, double sensitivity) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** Laplace mechanism with scale {@code b} and L1 sensitivity. */
  public static PrivacyLossDistribution laplace(double b, double sensitivity) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** One step of the Poisson-subsampled Gaussian mechanism (sampling rate q, noise multiplier). */
  public static PrivacyLossDistribution poissonSubsampledGaussian(
      double noiseMultiplier, double samplingRate) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /**
   * The SecPE dominating pair: P = N(S, sigma^2) against Q = N(0, sigma^2) with
   * S = shiftScale * PoissonBinomial(shiftProbs).
   */
  public static PrivacyLossDistribution secretMixture(
      double sigma, double[] shiftProbs, double shiftScale) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The composition of this and {@code other} (both must use the same discretisation). */
  public PrivacyLossDistribution compose(PrivacyLossDistribution other) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The T-fold self-composition. */
  public PrivacyLossDistribution selfCompose(int times) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The least epsilon with delta(epsilon) <= delta, rounded up. */
  public double epsilon(double delta) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The hockey-stick divergence delta(epsilon), rounded up. */
  public double delta(double epsilon) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The blow-up function B(alpha) = sup{P(E) : Q(E) <= alpha}, rounded up. */
  public double blowUp(double alpha) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The trade-off function T(alpha) = 1 - B(alpha), rounded down. */
  public double tradeOff(double alpha) {
    return 1.0 - blowUp(alpha);
  }
}
