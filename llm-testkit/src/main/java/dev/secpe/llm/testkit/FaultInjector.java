package dev.secpe.llm.testkit;

import dev.secpe.llm.ProviderException;
import java.util.concurrent.atomic.AtomicLong;

/** Counts calls and decides which fail, per a {@link FaultPlan}. */
final class FaultInjector {
  private final FaultPlan plan;
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  FaultInjector(FaultPlan plan) {
    this.plan = plan;
  }

  FaultPlan plan() {
    return plan;
  }

  /** Registers one call; returns the failure to throw, or null. */
  ProviderException next(String who) {
    long n = calls.incrementAndGet();
    if (plan.failEvery() > 0 && n % plan.failEvery() == 0) {
      failures.incrementAndGet();
      String msg = who + ": injected failure on call " + n;
      return plan.failure() == FaultPlan.Failure.RETRYABLE
          ? new ProviderException.Retryable(msg, null)
          : new ProviderException.Permanent(msg, null);
    }
    return null;
  }

  long calls() {
    return calls.get();
  }

  long failures() {
    return failures.get();
  }
}
