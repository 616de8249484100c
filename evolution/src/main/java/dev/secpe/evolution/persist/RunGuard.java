package dev.secpe.evolution.persist;

import dev.secpe.accounting.ledger.Release;
import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.evolution.PrivacyJournal;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.engine.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one run holds from its start to its end: the lock of its checkpoint directory (one run per
 * checkpoint) and, where the settings give a {@link PrivacyJournal}, its dataset's journal (one run
 * per dataset), through which every draw and every checkpoint is witnessed. A non-private run
 * spends nothing and keeps no journal.
 */
public final class RunGuard implements AutoCloseable {

  private final Optional<CheckpointStore> checkpoints;
  private final AutoCloseable checkpointLock; // null without a checkpoint
  private final RunJournal journal; // null without a journal
  private final String method;
  private final Optional<java.nio.file.Path> checkpointDir;
  private final String noise;
  private final List<Release> planned;

  private RunGuard(
      Optional<CheckpointStore> checkpoints, AutoCloseable checkpointLock, RunJournal journal, String method,
      EvolutionSettings settings, List<Release> planned) {
    this.checkpoints = checkpoints;
    this.checkpointLock = checkpointLock;
    this.journal = journal;
    this.method = method;
    this.checkpointDir = settings.checkpointDir();
    this.noise = settings.noise().isPrivate() ? Checkpoint.SECURE : Checkpoint.REPRODUCIBLE;
    this.planned = planned;
  }

  /**
   * Locks the run's checkpoint directory, then opens its dataset's journal.
   *
   * @throws IllegalStateException if another run holds either, or the journal refuses the run
   */
  public static RunGuard open(EvolutionSettings settings, Method method, PrivateStore data) {
    Duration wait = settings.journal().map(PrivacyJournal::lockWait).orElse(Duration.ZERO);
    String holder = "secpe " + method.name() + " run by " + System.getProperty("user.name", "?");
    Optional<CheckpointStore> cps = settings.checkpointDir().map(CheckpointStore::new);
    AutoCloseable lock = cps.isPresent() ? cps.get().lock(wait, holder) : null;
    RunJournal journal = null;
    try {
      if (settings.journal().isPresent() && method.plan().isPrivate()) {
        journal = RunJournal.open(settings.journal().get().directory(), wait, data.datasetKey(), data.size(), holder);
      }
    } catch (RuntimeException e) {
      closeQuietly(lock);
      throw e;
    }
    return new RunGuard(cps, lock, journal, method.name(), settings, method.plan().calibratedReleases());
  }

  /** The run's checkpoint store, if it checkpoints. */
  public Optional<CheckpointStore> checkpoints() {
    return checkpoints;
  }

  /** A fresh run starts: journalled (a new lineage) after its plan is checked against the lifetime budget. */
  public void fresh() {
    if (journal != null) {
      journal.fresh(method, checkpointDir, noise, planned);
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
    return journal.resume(restored, s.integrity(), s.file(), noise, planned);
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
