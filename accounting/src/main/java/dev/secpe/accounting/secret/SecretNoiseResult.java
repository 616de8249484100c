package dev.secpe.accounting.secret;

/**
 * The output of {@link SecretNoise}: the calibrated noise and the per-record sampling
 * probabilities. Arrays are defensive copies.
 *
 * @param sigma the noise standard deviation, {@code max_j sigma_j}
 * @param sigmaPerSecret {@code sigma_j} for each secret
 * @param weights the LP solution {@code w_i}
 * @param rho sampling probabilities {@code rho_i = w_i / max_k w_k}
 * @param expectedSampled {@code sum_i rho_i}
 * @param rounds T used for the calibration
 * @param shiftMultiplier the multiplier c used for the calibration
 * @param secretCap K of the contribution-bounded mode ({@link SecretNoise.Builder#secretCap}), 0
 *     for the paper's mode
 */
public record SecretNoiseResult(
    double sigma,
    double[] sigmaPerSecret,
    double[] weights,
    double[] rho,
    double expectedSampled,
    int rounds,
    double shiftMultiplier,
    int secretCap) {

  /** Copies the arrays. */
  public SecretNoiseResult {
    if (secretCap < 0) {
      throw new IllegalArgumentException("secretCap must be >= 0, got secretCap=" + secretCap);
    }
    sigmaPerSecret = sigmaPerSecret.clone();
    weights = weights.clone();
    rho = rho.clone();
  }

  /** A result of the paper's mode (no secret cap). */
  public SecretNoiseResult(
      double sigma,
      double[] sigmaPerSecret,
      double[] weights,
      double[] rho,
      double expectedSampled,
      int rounds,
      double shiftMultiplier) {
    this(sigma, sigmaPerSecret, weights, rho, expectedSampled, rounds, shiftMultiplier, 0);
  }

  /** {@code sigma_j} for each secret (a copy). */
  @Override
  public double[] sigmaPerSecret() {
    return sigmaPerSecret.clone();
  }

  /** The LP solution {@code w_i}, one per record (a copy). */
  @Override
  public double[] weights() {
    return weights.clone();
  }

  /** The sampling probabilities {@code rho_i}, one per record (a copy). */
  @Override
  public double[] rho() {
    return rho.clone();
  }

  /** Number of records. */
  public int records() {
    return rho.length;
  }

  /** Number of secrets. */
  public int secrets() {
    return sigmaPerSecret.length;
  }
}
