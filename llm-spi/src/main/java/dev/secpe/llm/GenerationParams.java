package dev.secpe.llm;

import java.util.List;
import java.util.OptionalLong;

/**
 * Sampling parameters of a request.
 *
 * @param temperature >= 0
 * @param topP in (0, 1]
 * @param maxTokens >= 1
 * @param stop stop sequences (possibly empty)
 * @param seed a seed for providers that support determinism
 */
public record GenerationParams(
    double temperature, double topP, int maxTokens, List<String> stop, OptionalLong seed) {

  /** Validates eagerly. */
  public GenerationParams {
    if (!(temperature >= 0) || !Double.isFinite(temperature)) {
      throw new IllegalArgumentException("temperature must be >= 0, got temperature=" + temperature);
    }
    if (!(topP > 0 && topP <= 1)) {
      throw new IllegalArgumentException("topP must be in (0, 1], got topP=" + topP);
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be >= 1, got maxTokens=" + maxTokens);
    }
    stop = List.copyOf(stop);
    if (seed == null) {
      seed = OptionalLong.empty();
    }
  }

  /** The papers' defaults: temperature 1.2, top-p 1, 448 tokens, no stop, no seed. */
  public static GenerationParams defaults() {
    return new GenerationParams(1.2, 1.0, 448, List.of(), OptionalLong.empty());
  }

  /** A copy with the seed set. */
  public GenerationParams withSeed(long s) {
    return new GenerationParams(temperature, topP, maxTokens, stop, OptionalLong.of(s));
  }
}
