package dev.secpe.evolution.persist;

import dev.secpe.accounting.ledger.Release;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one run holds from its start to its end: the lock of its checkpoint directory (one run per
 * checkpoint) and, where it keeps a privacy journal, its dataset's journal (one run per dataset),
 * through which every draw and every checkpoint is witnessed. A non-private run spends nothing and
 * keeps no journal.
 *
 * <p>The engine's one door into this package: it reads a checkpoint through {@link
 * #checkpoints()}, draws through a {@link ReleaseStore} that reports to {@link #witness()}, and
 * writes checkpoints through {@link #write}; the journal itself ({@link RunJournal}) it never sees.
 */
public final class RunGuard implements AutoCloseable {

  private final Optional<CheckpointStore> checkpoints;
  private final AutoCloseable checkpointLock; // null without a checkpoint
  private final RunJournal journal; // null without a journal
  private final Request run;

  private RunGuard(
      Optional<CheckpointStore> checkpoints, AutoCloseable checkpointLock, RunJournal journal, Request run) {
    this.checkpoints = checkpoints;
    this.checkpointLock = checkpointLock;
    this.journal = journal;
    this.run = run;
  }

  /**
   * What a run asks to hold.
   *
   * @param method the method's name
   * @param mode the method's mode ("secpe", "secpe-split", "secpe-split-votes"; else the method's
   *     name), journalled with the run
   * @param exactRecords whether the run uses private records exactly, without noise (SecPE's split):
   *     journalled, so that the dataset's record-level total is never stated as bounded
   * @param journal the directory of the privacy journals, if the run keeps one (a non-private run
   *     keeps none)
   * @param lockWait how long to wait for another run on the same dataset or checkpoint directory
   * @param checkpointDir the run's checkpoint directory, if it checkpoints
   * @param secureNoise whether the run draws secure noise (else reproducible, seeded noise)
   * @param detector the digest of the run's secret detector's whole configuration, "" for none
   * @param prior the prior p of a run whose guarantee is per secret (SecPE's (p, r) budget),
   *     journalled with the run; empty for none
   * @param planned the releases the run plans, checked against the dataset's lifetime budget
   * @param datasetKey the private dataset's key, which names its journal
   * @param records the number of private records
   */
  public record Request(
      String method,
      String mode,
      boolean exactRecords,
      Optional<Path> journal,
      Duration lockWait,
      Optional<Path> checkpointDir,
      boolean secureNoise,
      String detector,
      OptionalDouble prior,
      List<Release> planned,
      String datasetKey,
      int records) {

    /**
     * The noise as checkpoints and the journal name it: {@link Checkpoint#SECURE} or {@link
     * Checkpoint#REPRODUCIBLE}.
     */
    public String noise() {
      return secureNoise ? Checkpoint.SECURE : Checkpoint.REPRODUCIBLE;
    }
  }

  /**
   * Locks the run's checkpoint directory, then opens its dataset's journal.
   *
   * @throws IllegalStateException if another run holds either, or the journal refuses the run
   */
  public static RunGuard open(Request run) {
    String holder = "secpe " + run.method() + " run by " + System.getProperty("user.name", "?");
    Optional<CheckpointStore> cps = run.checkpointDir().map(CheckpointStore::new);
    AutoCloseable lock = cps.isPresent() ? cps.get().lock(run.lockWait(), holder) : null;
    RunJournal journal = null;
    try {
      if (run.journal().isPresent()) {
        journal = RunJournal.open(run.journal().get(), run.lockWait(), run.datasetKey(), run.records(), holder);
      }
    } catch (RuntimeException e) {
      closeQuietly(lock);
      throw e;
    }
    return new RunGuard(cps, lock, journal, run);
  }

  /**
   * The refusal of a resume that would switch noise modes: secure after reproducible would call
   * private the releases it reuses; reproducible after secure would make a run part private.
   */
  public static IllegalStateException noiseSwitched(Path where, String before, String now) {
    return RunJournal.noiseSwitched(where, before, now);
  }

  /**
   * The refusal of a resume whose secret detector differs from the one the checkpoint's releases
   * protect (its whole configuration, whatever its display name), or whose checkpoint cannot show
   * which detector that was.
   */
  public static IllegalStateException detectorChanged(Path where, String before, String now) {
    return RunJournal.detectorChanged(where, before, now);
  }

  /** The run's checkpoint store, if it checkpoints. */
  public Optional<CheckpointStore> checkpoints() {
    return checkpoints;
  }

  /**
   * A fresh run starts: journalled (a new lineage) after its plan is checked against the lifetime
   * budget.
   */
  public void fresh() {
    if (journal != null) {
      journal.fresh(run);
    }
  }

  /**
   * A run resumes from {@code restored} (read through {@link #checkpoints()}): checked against the
   * journal, and completed with the releases the journal kept after it was written.
   */
  public Checkpoint resumed(Checkpoint restored) {
    CheckpointStore s = checkpoints.orElseThrow();
    if (journal == null) {
      if (!restored.lineage().isEmpty()) {
        throw new IllegalStateException(
            "checkpoint " + s.file() + " was written under a privacy journal: resume it with that journal"
                + " (PrivacyJournal in the builder; bin/secpe run --journal DIR), so that what it holds is checked"
                + " against what was drawn");
      }
      return restored;
    }
    return journal.resume(restored, s.integrity(), s.file(), run);
  }

  /** What opening the privacy journal repaired (a torn last line), in words; empty if nothing. */
  public List<String> journalRepairs() {
    return journal == null ? List.of() : journal.repairs();
  }

  /** Whether the run keeps a privacy journal. */
  public boolean journalled() {
    return journal != null;
  }

  /** The lineage checkpoints are written with ("" without a journal). */
  public String lineage() {
    return journal == null ? "" : journal.lineage();
  }

  /** What sees every draw. */
  public ReleaseStore.Witness witness() {
    if (journal == null) {
      return ReleaseStore.Witness.NONE;
    }
    return new ReleaseStore.Witness() {
      @Override
      public void beforeDraw(String key, Release charged) {
        journal.beforeDraw(key, charged);
      }

      @Override
      public void afterDraw(String key, double[] values) {
        journal.afterDraw(key, values);
      }
    };
  }

  /** Writes a checkpoint and journals its digest. */
  public void write(CheckpointStore store, Checkpoint c) {
    String digest = store.write(c);
    if (journal != null) {
      journal.checkpointed(digest, c.round(), c.values().size());
    }
  }

  /** Journals how the run ended (null: it finished). */
  public void end(Throwable failure) {
    if (journal != null) {
      journal.end(failure);
    }
  }

  @Override
  public void close() {
    try {
      if (journal != null) {
        journal.close();
      }
    } finally {
      closeQuietly(checkpointLock);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception ignored) {
        // the OS releases the lock with the process in any case
      }
    }
  }
}
