package dev.secpe.core;

import java.util.List;
import java.util.Objects;

/**
 * Where a synthetic text came from.
 *
 * @param round the evolution round that produced it (0 for the initial population), >= 0
 * @param parentIds ids of the candidates it was derived from (empty for round 0)
 * @param operator the operator that produced it, e.g. {@link #INITIAL}, {@link #VARIATION}
 */
public record Provenance(int round, List<String> parentIds, String operator) {

  /** Initial generation from a prompt, without parents. */
  public static final String INITIAL = "initial";

  /** An LLM variation of one parent (PE's VARIATION_API). */
  public static final String VARIATION = "variation";

  /** DPGA's rewrite mutation. */
  public static final String REWRITE = "rewrite";

  /** Fill-in (masked) variation (Aug-PE, DPGA). */
  public static final String FILL = "fill";

  /** DPGA's crossover of two parents. */
  public static final String CROSS = "cross";

  /** DPGA's fresh generation. */
  public static final String GENERATE = "generate";

  /** Validates and copies. */
  public Provenance {
    if (round < 0) {
      throw new IllegalArgumentException("round must be >= 0, got round=" + round);
    }
    parentIds = List.copyOf(Objects.requireNonNull(parentIds, "parentIds"));
    Objects.requireNonNull(operator, "operator");
    if (operator.isBlank()) {
      throw new IllegalArgumentException("operator must not be blank");
    }
  }

  /** The provenance of an initial sample in round 0. */
  public static Provenance initial() {
    return new Provenance(0, List.of(), INITIAL);
  }
}
