package dev.secpe.core.report;

import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.SyntheticText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** Something that happened in a run; delivered to a {@link RunListener}. Rounds are 0-based: round 0 votes on the initial population. */
public sealed interface RunEvent {

  /**
   * A run began.
   *
   * @param method e.g. "secpe"
   * @param totalRounds the number of rounds T it will run
   * @param resumedFromRound the last round restored from a checkpoint, 0 for a fresh run
   */
  record RunStarted(String method, int totalRounds, int resumedFromRound) implements RunEvent {
    /** Validates. */
    public RunStarted {
      Objects.requireNonNull(method, "method");
    }
  }

  /** A round began. */
  record RoundStarted(int round, int totalRounds) implements RunEvent {}

  /**
   * Work inside a phase progressed, e.g. {@code done} of {@code total} generations.
   *
   * @param round the round
   * @param phase the phase
   * @param done units finished so far
   * @param total units in the phase
   */
  record Progress(int round, Phase phase, long done, long total) implements RunEvent {
    /** Validates. */
    public Progress {
      Objects.requireNonNull(phase, "phase");
    }
  }

  /** A phase of a round finished after {@code elapsed}. */
  record PhaseFinished(int round, Phase phase, Duration elapsed) implements RunEvent {
    /** Validates. */
    public PhaseFinished {
      Objects.requireNonNull(phase, "phase");
      Objects.requireNonNull(elapsed, "elapsed");
    }
  }

  /**
   * A round finished.
   *
   * @param round the round
   * @param timings the round's phase timings
   * @param populationSize the number of candidates kept
   */
  /**
   * The survivors of a round's selection and the scores they were selected by. Both are outputs of
   * accounted releases (or post-processing of them): synthetic text and noisy votes only.
   *
   * @param round the round
   * @param survivors the selected synthetic texts, best first within each label
   * @param votes the (noisy) score of every candidate of the round, in population order
   */
  record SurvivorsSelected(int round, List<SyntheticText> survivors, double[] votes)
      implements RunEvent {
    /** Copies. */
    public SurvivorsSelected {
      survivors = List.copyOf(survivors);
      votes = votes.clone();
    }

    /** The noisy votes of the round (a copy). */
    @Override
    public double[] votes() {
      return votes.clone();
    }
  }

  /**
   * A round finished, before the next round's population is generated (that generation is the next
   * round's, as round 0's generation is the initial population's).
   *
   * @param round the round
   * @param timings the round's time per phase: generating its population, embedding it, voting
   * @param populationSize the survivors plus the offspring requested for the next round (the
   *     survivors alone after the last round); texts that repeat one already in the population may
   *     be left out of it
   */
  record RoundFinished(int round, PhaseTimings timings, int populationSize) implements RunEvent {
    /** Validates. */
    public RoundFinished {
      Objects.requireNonNull(timings, "timings");
    }
  }

  /** A release was charged to the ledger (before its noise was drawn). */
  record ReleaseCharged(Release release) implements RunEvent {
    /** Validates. */
    public ReleaseCharged {
      Objects.requireNonNull(release, "release");
    }
  }

  /** A checkpoint of the state after {@code round} was written to {@code location}. */
  record CheckpointWritten(int round, Path location) implements RunEvent {
    /** Validates. */
    public CheckpointWritten {
      Objects.requireNonNull(location, "location");
    }
  }

  /** The run finished; {@code total} sums the phase timings of all rounds. */
  record RunFinished(PhaseTimings total) implements RunEvent {
    /** Validates. */
    public RunFinished {
      Objects.requireNonNull(total, "total");
    }
  }
}
