package dev.secpe.core.report;

import java.time.Duration;
import java.util.Objects;

/**
 * Wall-clock time spent per {@link Phase}.
 *
 * @param generation time in LLM generation
 * @param embedding time in embedding
 * @param selection time in voting, noise and selection
 */
public record PhaseTimings(Duration generation, Duration embedding, Duration selection) {

  /** All zero. */
  public static final PhaseTimings ZERO = new PhaseTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO);

  /** Validates: no duration is negative. */
  public PhaseTimings {
    check("generation", generation);
    check("embedding", embedding);
    check("selection", selection);
  }

  private static void check(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " time must be >= 0, got " + d);
    }
  }

  /** The time of one phase. */
  public Duration of(Phase phase) {
    return switch (phase) {
      case GENERATION -> generation;
      case EMBEDDING -> embedding;
      case SELECTION -> selection;
    };
  }

  /** A copy with {@code elapsed} added to {@code phase}. */
  public PhaseTimings plus(Phase phase, Duration elapsed) {
    return switch (phase) {
      case GENERATION -> new PhaseTimings(generation.plus(elapsed), embedding, selection);
      case EMBEDDING -> new PhaseTimings(generation, embedding.plus(elapsed), selection);
      case SELECTION -> new PhaseTimings(generation, embedding, selection.plus(elapsed));
    };
  }

  /** The phase-wise sum. */
  public PhaseTimings plus(PhaseTimings other) {
    return new PhaseTimings(
        generation.plus(other.generation),
        embedding.plus(other.embedding),
        selection.plus(other.selection));
  }

  /** The sum of the three phases. */
  public Duration total() {
    return generation.plus(embedding).plus(selection);
  }

  /** Seconds of {@code phase}, as a double. */
  public double seconds(Phase phase) {
    return of(phase).toNanos() / 1e9;
  }
}
