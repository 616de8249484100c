package dev.secpe.accounting.ledger;

import dev.secpe.accounting.Preconditions;
import dev.secpe.accounting.Sensitivity;
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

  /**
   * A Gaussian release: noise of standard deviation {@code sigma} on a query of L2 sensitivity
   * {@code sensitivity}; it costs the noise multiplier {@code sigma / sensitivity}. The noise comes
   * first, as in {@code PrivacyLossDistribution.gaussian(sigma, sensitivity)} and every other
   * factory of this module; the typed sensitivity makes a swap a compile error.
   *
   * @param sigma finite and > 0
   * @param sensitivity an {@link Sensitivity.Norm#L2 L2} sensitivity
   * @throws IllegalArgumentException for a non-positive sigma or an L1 sensitivity
   */
  public static Release gaussian(String id, String protects, double sigma, Sensitivity sensitivity) {
    Preconditions.checkPositive("sigma", sigma);
    double l2 = Objects.requireNonNull(sensitivity, "sensitivity").in(Sensitivity.Norm.L2, "a Gaussian release");
    return new Release(
        id, "Gaussian", protects, l2, sigma, new PrivacyCost.Gaussian(sigma / l2));
  }

  /**
   * A Laplace release: noise of scale {@code b} on a query of L1 sensitivity {@code sensitivity};
   * noise first, as everywhere in this module.
   *
   * @param b finite and > 0
   * @param sensitivity an {@link Sensitivity.Norm#L1 L1} sensitivity
   * @throws IllegalArgumentException for a non-positive b or an L2 sensitivity
   */
  public static Release laplace(String id, String protects, double b, Sensitivity sensitivity) {
    Preconditions.checkPositive("b", b);
    double l1 = Objects.requireNonNull(sensitivity, "sensitivity").in(Sensitivity.Norm.L1, "a Laplace release");
    return new Release(id, "Laplace", protects, l1, b, new PrivacyCost.Laplace(b, l1));
  }

  /**
   * A Gaussian release with L2 sensitivity and noise standard deviation sigma.
   *
   * @deprecated takes the sensitivity before the noise, where every other factory takes the noise
   *     first, so a swap went unnoticed; use {@link #gaussian(String, String, double, Sensitivity)}:
   *     {@code gaussian(id, protects, sigma, Sensitivity.l2(sensitivity))}.
   */
  @Deprecated(since = "0.1.0")
  public static Release gaussian(String id, String protects, double sensitivity, double sigma) {
    Preconditions.checkPositive("sensitivity", sensitivity);
    return gaussian(id, protects, sigma, Sensitivity.l2(sensitivity));
  }

  /**
   * A Laplace release with L1 sensitivity and scale b.
   *
   * @deprecated takes the sensitivity before the noise; use {@link #laplace(String, String,
   *     double, Sensitivity)}: {@code laplace(id, protects, b, Sensitivity.l1(sensitivity))}.
   */
  @Deprecated(since = "0.1.0")
  public static Release laplace(String id, String protects, double sensitivity, double b) {
    return laplace(id, protects, b, Sensitivity.l1(sensitivity));
  }
}
