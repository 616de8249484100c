package dev.secpe.accounting.ledger;

/**
 * What one release costs, in the terms the accountant composes. Each variant maps to a
 * privacy-loss distribution; the Gaussian ones also compose exactly in mu-GDP.
 */
public sealed interface PrivacyCost {

  /** A Gaussian mechanism with noise multiplier z = sigma / L2-sensitivity (mu = 1/z). */
  record Gaussian(double noiseMultiplier) implements PrivacyCost {}

  /** A Laplace mechanism with scale b and L1 sensitivity (epsilon = sensitivity / b). */
  record Laplace(double scale, double sensitivity) implements PrivacyCost {}

  /** {@code steps} releases of the Poisson-subsampled Gaussian mechanism. */
  record SubsampledGaussian(double noiseMultiplier, double samplingRate, int steps)
      implements PrivacyCost {}

  /**
   * A SecPE secret-clustering release: N(c * S_j, sigma^2) vs N(0, sigma^2) per secret j with
   * S_j ~ PoissonBinomial of the sampling probabilities of the records holding s_j.
   *
   * @param sigma the noise multiplier of the release
   * @param shiftMultiplier c (sqrt(2) for counts and centres, DESIGN §4)
   * @param shiftProbsPerSecret for each secret j, the rho_i of the records holding it
   */
  record SecretMixture(double sigma, double shiftMultiplier, double[][] shiftProbsPerSecret)
      implements PrivacyCost {}

  /** A pure epsilon-DP mechanism accounted only by its epsilon (e.g. AboveThreshold / SVT). */
  record PureDp(double epsilon) implements PrivacyCost {}
}
