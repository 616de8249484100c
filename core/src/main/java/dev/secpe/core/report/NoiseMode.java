package dev.secpe.core.report;

/** How a run's noise was sampled, as the report states it. */
public enum NoiseMode {
  /** From a {@code SecureRandom}-backed {@code NoiseSource}: the guarantee holds. */
  SECURE,
  /**
   * From {@code NoiseSources.reproducibleForTests}: seeded and replayable, so NOT private; the
   * stated guarantee is what the mechanism would give with secure noise.
   */
  REPRODUCIBLE_NON_PRIVATE,
  /** No noise at all (r/p = infinity, a non-private baseline). */
  NONE;

  /** Whether the run's output carries its stated privacy guarantee. */
  public boolean isPrivate() {
    return this == SECURE;
  }
}
