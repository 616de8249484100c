package dev.secpe.llm.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * Scripted misbehaviour for the fakes, in the spirit of retrofit-mock's {@code NetworkBehavior}
 * but deterministic: every call waits {@code latency}, and every {@code failEvery}-th call (1-based
 * count over the fake's lifetime; 0 = never) fails with a {@link
 * dev.secpe.llm.ProviderException.Retryable} or {@link dev.secpe.llm.ProviderException.Permanent}.
 *
 * @param latency the delay of every call, >= 0
 * @param failEvery fail calls number k, 2k, 3k, ...; 0 for never
 * @param failure the kind of injected failure
 */
public record FaultPlan(Duration latency, int failEvery, Failure failure) {

  /** The kind of an injected failure. */
  public enum Failure {
    /** {@link dev.secpe.llm.ProviderException.Retryable}, like a 429 or a 503. */
    RETRYABLE,
    /** {@link dev.secpe.llm.ProviderException.Permanent}, like a 400 or a 401. */
    PERMANENT
  }

  /** Validates eagerly. */
  public FaultPlan {
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(failure, "failure");
    if (latency.isNegative()) {
      throw new IllegalArgumentException("latency must be >= 0, got latency=" + latency);
    }
    if (failEvery < 0) {
      throw new IllegalArgumentException("failEvery must be >= 0, got failEvery=" + failEvery);
    }
  }

  /** No latency, no failures. */
  public static FaultPlan none() {
    return new FaultPlan(Duration.ZERO, 0, Failure.RETRYABLE);
  }

  /** A copy with every call delayed by {@code value}. */
  public FaultPlan withLatency(Duration value) {
    return new FaultPlan(value, failEvery, failure);
  }

  /** A copy that fails every {@code k}-th call with {@code kind}. */
  public FaultPlan failingEvery(int k, Failure kind) {
    return new FaultPlan(latency, k, kind);
  }
}
