package dev.secpe.evolution.engine;

import dev.secpe.accounting.DpBudget;
import org.jspecify.annotations.Nullable;

/**
 * A method whose whole run is limited by one (epsilon, delta) budget (DPGA, CTCL): the delta and
 * prior its report is stated at follow from that budget.
 */
public interface ApproximateDpMethod extends Method {

  /** The run's (epsilon, delta); null for a non-private run. */
  public @Nullable DpBudget budget();

  /** The budget's delta. */
  @Override
  public default double reportDelta() {
    DpBudget b = budget();
    if (b == null) {
      throw new IllegalStateException(name() + ": a non-private run states no delta");
    }
    return b.delta();
  }

  /** No prior of its own: the report's (p, r) line is stated at p = 1e-4. */
  @Override
  public default double reportPrior() {
    return 1e-4;
  }
}
