package dev.secpe.accounting.noise;

/** Factories for {@link NoiseSource}s. */
public final class NoiseSources {

  private NoiseSources() {}

  /** The default: noise from a {@link java.security.SecureRandom}. */
  public static NoiseSource secure() {
    throw new UnsupportedOperationException("not yet implemented");
  }

  /**
   * A seeded, reproducible source for tests and demos only. It is NOT private: reports of runs
   * that use it say so.
   */
  public static NoiseSource reproducibleForTests(long seed) {
    throw new UnsupportedOperationException("not yet implemented");
  }
}
