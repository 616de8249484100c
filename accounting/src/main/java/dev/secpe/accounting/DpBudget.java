package dev.secpe.accounting;

import java.util.Optional;

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

  /**
   * Below this many records the conventional delta 1/(N ln N) is above 2.2e-3 (0.72 at N = 2): an
   * (epsilon, delta) statement at such a delta says little, since a mechanism may then publish a
   * whole record with probability delta.
   */
  public static final int MIN_RECORDS_FOR_DEFAULT_DELTA = 100;

  /**
   * A warning when {@code delta} is the conventional {@link #deltaForDatasetSize} of a dataset of
   * fewer than {@value #MIN_RECORDS_FOR_DEFAULT_DELTA} records; empty otherwise (a delta the
   * caller chose is the caller's, and {@link #deltaAboveOneOverN} checks it).
   *
   * @param delta the delta a guarantee is stated at
   * @param n the number of private records, >= 1
   */
  public static Optional<String> defaultDeltaTooLarge(double delta, long n) {
    if (n < 1) {
      throw new IllegalArgumentException("dataset size must be >= 1, got N=" + n);
    }
    if (n >= MIN_RECORDS_FOR_DEFAULT_DELTA || delta != deltaForDatasetSize(Math.max(2, n))) {
      return Optional.empty();
    }
    return Optional.of(
        "the (epsilon, delta) figures use the default delta 1/(N ln N) = " + delta + " for N = " + n
            + " private records, which says little below N = " + MIN_RECORDS_FOR_DEFAULT_DELTA
            + " (a mechanism may publish a whole record with probability delta): state the delta you need"
            + " (reportDelta(...), bin/secpe run --delta) or use more records");
  }

  /**
   * A warning when {@code delta} is not below {@code 1/n} for a dataset of {@code n} records (at
   * such a delta a mechanism that publishes one whole record with probability delta is (0,
   * delta)-DP); empty otherwise. Only the public count {@code n} is used.
   *
   * @param delta the delta a guarantee is stated at
   * @param n the number of private records, >= 1
   */
  public static Optional<String> deltaAboveOneOverN(double delta, long n) {
    if (n < 1) {
      throw new IllegalArgumentException("dataset size must be >= 1, got N=" + n);
    }
    if (delta < 1.0 / n) {
      return Optional.empty();
    }
    return Optional.of(
        "delta=" + delta + " is not below 1/N = " + (1.0 / n) + " (N = " + n
            + " private records): a mechanism may then release a whole record with probability delta;"
            + " a delta of 1/(N ln N) = " + deltaForDatasetSize(Math.max(2, n)) + " is the convention");
  }
}
