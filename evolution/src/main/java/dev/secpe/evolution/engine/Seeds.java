package dev.secpe.evolution.engine;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Derives independent, reproducible seeds for each purpose and round from one base seed, so no
 * random state has to be checkpointed: round t of a resumed run draws exactly what it would have
 * drawn. These seeds drive generation and sampling choices only, never privacy noise (which comes
 * from a {@link dev.secpe.accounting.noise.NoiseSource}).
 */
public final class Seeds {

  private Seeds() {}

  /** A seed for {@code purpose} in {@code round}, decorrelated from every other pair. */
  public static long derive(long base, String purpose, int round) {
    long h = mix(base ^ 0x9E3779B97F4A7C15L);
    for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
      h = mix(h ^ (b & 0xFF));
    }
    return mix(h ^ ((long) round * 0xD1B54A32D192ED03L));
  }

  /** A generator seeded by {@link #derive(long, String, int)}. */
  public static SplittableRandom random(long base, String purpose, int round) {
    return new SplittableRandom(derive(base, purpose, round));
  }

  /** Stafford's variant 13 of the SplitMix64 finaliser. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
