package dev.secpe.evolution;

import dev.secpe.accounting.noise.NoiseSource;
import java.util.Objects;

/**
 * Whether a run is private, and where its noise comes from. A private run draws every release's
 * noise from its {@link NoiseSource} and charges a ledger limited to its budget; a non-private run
 * (the papers' r/p = infinity baseline) draws no noise, charges nothing and protects nothing — its
 * privacy plan has no release. Set on a builder with {@code noise(...)} or {@code nonPrivate()}.
 */
public sealed interface PrivacyMode permits PrivacyMode.Private, PrivacyMode.NonPrivate {

  /** The noise every release is drawn with (none for a non-private run). */
  NoiseSource noise();

  /**
   * A private run.
   *
   * @param noise where privacy noise comes from: secure by default; a source that is not private
   *     ({@link NoiseSource#isPrivate()}) makes the report say so
   */
  record Private(NoiseSource noise) implements PrivacyMode {
    /** Validates eagerly. */
    public Private {
      Objects.requireNonNull(noise, "noise");
    }
  }

  /** The non-private baseline: no noise, no release charged, nothing protected. */
  record NonPrivate() implements PrivacyMode {
    @Override
    public NoiseSource noise() {
      return NoNoise.INSTANCE;
    }
  }
}
