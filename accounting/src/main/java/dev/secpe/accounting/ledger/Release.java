package dev.secpe.accounting.ledger;

import dev.secpe.accounting.Preconditions;
import java.util.Objects;

/**
 * One noisy release on the {@link PrivacyLedger}. Labels are the caller's description of the
 * mechanism; they must never contain private text (they end up in reports and messages).
 *
 * @param id a stable identifier (e.g. "augpe/round-3/votes"); a resumed run looks releases up
 *     by it and never draws the same release twice
 * @param mechanism the mechanism, e.g. "Gaussian", "Laplace", "AboveThreshold"
 * @param protects what the release is about, e.g. "vote histogram over 2000 candidates"
 * @param sensitivity the sensitivity the noise was calibrated to (finite, >= 0)
 * @param noiseScale the noise scale (standard deviation for Gaussian, b for Laplace; finite, >= 0)
 * @param cost how the accountant composes it
 */
public record Release(
    String id,
    String mechanism,
    String protects,
    double sensitivity,
    double noiseScale,
    PrivacyCost cost) {

  /** Validates eagerly. */
  public Release {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("release id must be non-blank, got id=" + id);
    }
    Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(protects, "protects");
    Objects.requireNonNull(cost, "cost");
    Preconditions.checkNonNegative("sensitivity", sensitivity);
    Preconditions.checkNonNegative("noiseScale", noiseScale);
  }

  /** A Gaussian release with L2 sensitivity and noise standard deviation sigma. */
  public static Release gaussian(String id, String protects, double sensitivity, double sigma) {
    Preconditions.checkPositive("sensitivity", sensitivity);
    Preconditions.checkPositive("sigma", sigma);
    return new Release(
        id, "Gaussian", protects, sensitivity, sigma, new PrivacyCost.Gaussian(sigma / sensitivity));
  }

  /** A Laplace release with L1 sensitivity and scale b. */
  public static Release laplace(String id, String protects, double sensitivity, double b) {
    return new Release(
        id, "Laplace", protects, sensitivity, b, new PrivacyCost.Laplace(b, sensitivity));
  }
}
