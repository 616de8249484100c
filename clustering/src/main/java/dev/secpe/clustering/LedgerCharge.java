package dev.secpe.clustering;

import dev.secpe.accounting.ledger.Release;

/**
 * The one call secret clustering makes to the privacy ledger, behind an interface this module
 * owns so tests can observe it (and its order relative to noise draws) without the ledger's
 * implementation. Production code passes {@code PrivacyLedger::charge}.
 */
@FunctionalInterface
interface LedgerCharge {
  /** Records the release or throws (budget exceeded, duplicate id); called before any noise. */
  Release charge(Release release);
}
