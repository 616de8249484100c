package dev.secpe.evolution;

/**
 * The largest sizes a run accepts, checked with exact (overflow-checked) arithmetic when a builder
 * is given them, so that a run too large to hold is refused before any private record is read or
 * any budget is spent (before, {@code 1,000,000,000 x 4} candidates overflowed to a negative count
 * after the releases were charged). {@code bin/secpe run} checks its options against the same
 * limits before it reads its inputs. Each limit is far above the papers' settings (2,000 synthetic
 * texts, 2,000 steps).
 */
public final class SizeLimits {

  /** N_syn, synthetic texts a run produces: at most 10,000,000. */
  public static final int MAX_SYNTHETIC_SIZE = 10_000_000;

  /**
   * Candidates a round holds (N_syn x (L + 1) for SecPE and Aug-PE, N_syn x DPGA's population
   * multiple): at most 20,000,000 (each is a text and an embedding held in memory).
   */
  public static final long MAX_CANDIDATES = 20_000_000L;

  /** L, variations per survivor: at most 10,000. */
  public static final int MAX_VARIATIONS = 10_000;

  /**
   * T, vote rounds: at most 1,000,000 (SecPE's rounds cost no budget; the texts generated over the
   * run are bounded by {@link #MAX_GENERATED} in any case).
   */
  public static final int MAX_ITERATIONS = 1_000_000;

  /** Candidates over all rounds (candidates x T): at most 10^9 texts generated in one run. */
  public static final long MAX_GENERATED = 1_000_000_000L;

  /** CTCL's fine-tuning steps K: at most 1,000,000 (each is accounted; the paper uses 2,000). */
  public static final int MAX_STEPS = 1_000_000;

  /** CTCL's topics: at most 100,000. */
  public static final int MAX_TOPICS = 100_000;

  private SizeLimits() {}

  /**
   * Checks {@code value} of the setting {@code name} against {@code [1, max]}.
   *
   * @throws IllegalArgumentException naming the setting, the value and the limit
   */
  public static int check(String name, long value, long max) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, got " + name + "=" + value);
    }
    if (value > max) {
      throw new IllegalArgumentException(
          name + " must be at most " + max + " (the stated limit, SizeLimits), got " + name + "=" + value);
    }
    return (int) Math.min(Integer.MAX_VALUE, value);
  }

  /**
   * Checks the candidates a round holds, {@code syntheticSize x perSurvivor}, and the texts
   * generated over {@code iterations} rounds, exactly.
   *
   * @param perSurvivor the population as a multiple of the survivors (L + 1, or DPGA's multiple)
   * @return the candidates a round holds
   * @throws IllegalArgumentException naming the product and its limit
   */
  public static long candidates(int syntheticSize, long perSurvivor, int iterations) {
    long c;
    long all;
    try {
      c = Math.multiplyExact((long) syntheticSize, perSurvivor);
      all = Math.multiplyExact(c, (long) iterations);
    } catch (ArithmeticException e) {
      c = Long.MAX_VALUE;
      all = Long.MAX_VALUE;
    }
    if (c > MAX_CANDIDATES) {
      throw new IllegalArgumentException(
          "syntheticSize x (candidates per survivor) = " + syntheticSize + " x " + perSurvivor
              + " candidates a round exceeds the limit of " + MAX_CANDIDATES + " (SizeLimits.MAX_CANDIDATES);"
              + " choose a smaller syntheticSize or fewer variations");
    }
    if (all > MAX_GENERATED) {
      throw new IllegalArgumentException(
          c + " candidates a round x iterations=" + iterations + " exceeds the limit of " + MAX_GENERATED
              + " texts generated in one run (SizeLimits.MAX_GENERATED); choose fewer iterations or candidates");
    }
    return c;
  }
}
