package dev.secpe.accounting;

/**
 * A (p, r)-secret-protection budget for one secret (SecPE Definition 3.1): an adversary whose
 * prior probability of reconstructing the secret is at most {@code p} succeeds after seeing
 * the output with probability at most {@code r}.
 *
 * <p>Requires {@code 0 < p < r < 1}. The non-private limit {@code r/p = inf} is not a budget;
 * callers express it by not adding noise at all.
 *
 * @param p the adversary's prior success probability
 * @param r the bound on the posterior success probability
 */
public record SecretBudget(double p, double r) {

  /** Validates eagerly; messages name both values. */
  public SecretBudget {
    Preconditions.checkOpenUnit("p", p);
    Preconditions.checkOpenUnit("r", r);
    if (!(r > p)) {
      throw new IllegalArgumentException("r must exceed p, got p=" + p + " r=" + r);
    }
  }

  /** A budget given as a prior and a ratio {@code r = ratio * p}. */
  public static SecretBudget ofRatio(double p, double ratio) {
    Preconditions.checkOpenUnit("p", p);
    if (!(ratio > 1) || !Double.isFinite(ratio)) {
      throw new IllegalArgumentException("r/p must be finite and > 1, got r/p=" + ratio);
    }
    return new SecretBudget(p, p * ratio);
  }

  /** The ratio r/p. */
  public double ratio() {
    return r / p;
  }
}
