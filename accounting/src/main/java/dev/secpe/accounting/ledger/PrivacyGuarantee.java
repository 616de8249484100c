package dev.secpe.accounting.ledger;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import java.util.Optional;

/**
 * The composed guarantee of a {@link PrivacyLedger}, in three languages. Every number is an upper
 * bound on the privacy loss (rounded outward); the method strings say how it was obtained.
 * Arrays are copied.
 *
 * @param releases the number of releases composed
 * @param gdpStatus whether {@link #gdp()} is exact, an upper bound, or absent
 * @param gdp the composed mu-GDP bound (the largest over secrets when SecPE mixtures are on the
 *     ledger); empty when {@code gdpStatus} is {@link GdpStatus#NOT_GDP}
 * @param epsilon the epsilon of the (epsilon, delta) guarantee at the requested delta; infinite
 *     when delta = 0 and a Gaussian release is present
 * @param delta the requested delta
 * @param dpMethod how epsilon was composed
 * @param p the prior of each secret (length 1 when no release distinguishes secrets)
 * @param r the bound on the posterior success of each secret; a value of 1 or more means no
 *     protection is implied
 * @param secretMethod how {@code r} was composed
 */
public record PrivacyGuarantee(
    int releases,
    GdpStatus gdpStatus,
    Optional<GdpMu> gdp,
    double epsilon,
    double delta,
    String dpMethod,
    double[] p,
    double[] r,
    String secretMethod) {

  /** Copies the arrays. */
  public PrivacyGuarantee {
    p = p.clone();
    r = r.clone();
  }

  /** The prior of each secret (a copy). */
  @Override
  public double[] p() {
    return p.clone();
  }

  /** The bound on the posterior success of each secret (a copy). */
  @Override
  public double[] r() {
    return r.clone();
  }

  /**
   * The (epsilon, delta) guarantee as a budget.
   *
   * @throws IllegalStateException if epsilon is infinite
   */
  public DpBudget dp() {
    if (!Double.isFinite(epsilon)) {
      throw new IllegalStateException("no finite epsilon at delta=" + delta);
    }
    return new DpBudget(epsilon, delta);
  }

  /** A one-line summary (r shown as its worst value over secrets). */
  @Override
  public String toString() {
    return "PrivacyGuarantee[releases="
        + releases
        + ", gdp="
        + gdpStatus
        + gdp.map(m -> " mu=" + m.mu()).orElse("")
        + ", epsilon="
        + epsilon
        + " at delta="
        + delta
        + ", secrets="
        + r.length
        + " worst r="
        + worstR()
        + "]";
  }

  /** The largest r over secrets. */
  public double worstR() {
    double m = 0;
    for (double v : r) {
      m = Math.max(m, v);
    }
    return m;
  }
}
