package dev.secpe.evolution.engine;

import dev.secpe.accounting.DpBudget;

/**
 * A method whose whole run is limited by one (epsilon, delta) budget (DPGA, CTCL): the delta and
 * prior its report is stated at follow from that budget.
 */
public interface ApproximateDpMethod extends Method {

  /** The run's (epsilon, delta); null for a non-private run. */
  public DpBudget budget();

  /** The budget's delta (1e-5 for a non-private run, which states no epsilon). */
  @Override
  public default double reportDelta() {
    return budget() == null ? 1e-5 : budget().delta();
  }

  /** No prior of its own: the report's (p, r) line is stated at p = 1e-4. */
  @Override
  public default double reportPrior() {
    return 1e-4;
  }
}
