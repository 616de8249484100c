package dev.secpe.evolution.persist;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One entry of a dataset's privacy journal as it is read back ({@link RunJournal#read}): the
 * journal's file format stays in this package, and {@link dev.secpe.evolution.PrivacyJournal}
 * builds its public history from these.
 */
public sealed interface JournalEntry {

  /** A release's cost as the journal writes it: a JSON object (see {@code CheckpointStore}). */
  static String costJson(PrivacyCost cost) {
    return CheckpointStore.costToJson(cost).toString();
  }

  /** The first entry: the dataset had {@code records} records when the journal was started. */
  record Dataset(int records) implements JournalEntry {}

  /** A lifetime budget set (one of {@code dp}, {@code secret}); the latest one applies. */
  record Limit(Instant set, String by, Optional<DpBudget> dp, Optional<SecretBudget> secret) implements JournalEntry {

    /** An empty ledger that refuses a release taking it past this limit. */
    public PrivacyLedger ledger() {
      return dp.isPresent() ? PrivacyLedger.withLimit(dp.get()) : PrivacyLedger.withUniformLimit(secret.orElseThrow());
    }

    /** The limit in words: "epsilon E at delta D" or "(p, r) = (P, R)". */
    public String describe() {
      return dp.map(b -> "epsilon " + b.epsilon() + " at delta " + b.delta())
          .orElseGet(() -> "(p, r) = (" + secret.orElseThrow().p() + ", " + secret.orElseThrow().r() + ")");
    }
  }

  /**
   * A run started ({@code noise}: {@link Checkpoint#SECURE} or {@link Checkpoint#REPRODUCIBLE};
   * {@code mode} "" in an entry written before runs journalled it, with {@code exactRecords} then
   * false although unknown; {@code prior} the p of a SecPE run's (p, r) budget, empty in an entry
   * written before runs journalled it and for the other methods).
   */
  record Run(
      String id,
      String lineage,
      String method,
      boolean resumed,
      Instant started,
      Optional<String> checkpoint,
      String user,
      String noise,
      String mode,
      boolean exactRecords,
      OptionalDouble prior) implements JournalEntry {}

  /** The run {@code run} charged {@code release}, before its noise was drawn. */
  record Charge(String run, Instant time, Release release) implements JournalEntry {}

  /** The run {@code run} ended: "finished", "cancelled" or "failed (Exception)". */
  record End(String run, Instant time, String status) implements JournalEntry {}

  /** A repair a run made to the journal (a torn last line), in words. */
  record Repair(String time, String note) implements JournalEntry {}
}
