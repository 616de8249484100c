package dev.secpe.accounting;

/**
 * A Gaussian noise multiplier: the standard deviation of the noise divided by the L2
 * sensitivity of the query.
 *
 * @param sigma finite and > 0
 */
public record NoiseMultiplier(double sigma) {

  /** Validates eagerly. */
  public NoiseMultiplier {
    Preconditions.checkPositive("sigma", sigma);
  }
}
