package dev.secpe.accounting.ledger;

import java.util.List;

/**
 * Records every release a run makes and composes them. A release that would exceed the
 * configured limit is refused by {@link #charge(Release)} before any noise is drawn: callers
 * charge first, then sample.
 *
 * <p>Thread-safe.
 */
public final class PrivacyLedger {

  private PrivacyLedger() {}

  /** A ledger without a limit (it still records and composes). */
  public static PrivacyLedger unlimited() {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /**
   * Records the release if the composition including it stays within the limit; otherwise
   * throws {@link BudgetExceededException} and records nothing. A release whose id is already on
   * the ledger is rejected with {@link IllegalStateException}.
   */
  public Release charge(Release release) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** Whether a release with this id has been charged. */
  public boolean contains(String releaseId) {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /** The releases in the order they were charged (unmodifiable). */
  public List<Release> releases() {
    throw new UnsupportedOperationException("not yet implemented");
  }
}
