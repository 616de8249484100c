package dev.secpe.accounting;

/**
 * An (epsilon, delta)-differential-privacy budget.
 *
 * @param epsilon finite and >= 0
 * @param delta in [0, 1)
 */
public record DpBudget(double epsilon, double delta) {

  /** Validates eagerly. */
  public DpBudget {
    Preconditions.checkNonNegative("epsilon", epsilon);
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), got delta=" + delta);
    }
  }

  /** The conventional {@code delta = 1 / (N ln N)} used by Aug-PE, DPGA and CTCL. */
  public static double deltaForDatasetSize(long n) {
    if (n < 2) {
      throw new IllegalArgumentException("dataset size must be >= 2, got N=" + n);
    }
    return 1.0 / (n * Math.log(n));
  }
}
