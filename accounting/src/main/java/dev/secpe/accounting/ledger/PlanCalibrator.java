package dev.secpe.accounting.ledger;

import dev.secpe.accounting.Bisection;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Preconditions;
import dev.secpe.accounting.pld.PldOptions;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleFunction;
import java.util.function.DoublePredicate;
import java.util.function.Supplier;

/**
 * The one safe-side calibrator for a plan of releases: the least noise multiplier {@code s} with
 * which the releases a run will make, {@code planAt(s)}, are admitted by a ledger limited to the
 * budget. "Admitted" is decided by {@link PrivacyLedger#withLimit(DpBudget)} charging the plan in
 * order: the very check that guards every release when a run draws it, so a calibrated plan is
 * never refused at run time, and a plan that cannot meet the budget is refused before any private
 * record is read.
 *
 * <p>The search first checks that the plan is admitted at {@link #MAX_MULTIPLIER} (otherwise the
 * budget is unreachable). It then searches on upper bounds of the plan's epsilon that cost one
 * composition each, never a refinement: doubling from {@code max(1, floor)} and bisecting to a
 * bracket of relative width 1e-3 on the pessimistic PLD at the default interval, tilted towards
 * the budget's epsilon (where the answer is decided); then, at the interval the ledger's own
 * refinement needs there, to a bracket of relative width {@link #RELATIVE_TOLERANCE}. Its upper
 * end is finally charged to a ledger limited to the budget, and raised by the tolerance until it
 * is admitted: the multiplier returned is one whose plan was itself charged and admitted (never
 * an interpolated value), so {@link #epsilon} of its plan is at most the budget's epsilon, exactly.
 * (Before, every bisection step charged a ledger, and every refused one refined the PLD: CTCL's
 * Yelp setting took minutes at {@code build()}.) The plan must need less noise as {@code s} grows
 * (more noise never costs more privacy).
 */
public final class PlanCalibrator {

  /** Relative width of the final bracket (the returned multiplier is at most this much too large). */
  public static final double RELATIVE_TOLERANCE = 1e-4;

  /** The largest multiplier tried before the budget is declared unreachable. */
  public static final double MAX_MULTIPLIER = 1e6;

  /** Relative width of the first, coarse bracket. */
  private static final double COARSE_TOLERANCE = 1e-3;

  private PlanCalibrator() {}

  /**
   * The least multiplier {@code s >= floor} (to {@link #RELATIVE_TOLERANCE}) whose plan is
   * admitted within {@code budget}.
   *
   * @param planAt the releases the run will make with multiplier s, in the order it charges them
   * @param budget the (epsilon, delta) limit
   * @param floor the smallest multiplier considered (> 0; returned if its plan is admitted)
   * @param unreachable the message of the {@link BudgetExceededException} thrown when no
   *     multiplier up to {@link #MAX_MULTIPLIER} is admitted (say what to change)
   * @throws BudgetExceededException if the budget cannot be met
   */
  public static double leastMultiplier(
      DoubleFunction<List<Release>> planAt, DpBudget budget, double floor, Supplier<String> unreachable) {
    Objects.requireNonNull(planAt, "planAt");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(unreachable, "unreachable");
    Preconditions.checkPositive("floor", floor);
    if (!admits(planAt.apply(MAX_MULTIPLIER), budget)) {
      // Decided once: a plan not admitted with the most noise is not admitted with less.
      throw new BudgetExceededException(unreachable.get());
    }
    double eps = budget.epsilon();
    double delta = budget.delta();
    PldOptions coarse = PldOptions.defaults().tiltTarget(eps);
    DoublePredicate meetsCoarse = s -> bound(planAt.apply(s), delta, coarse) <= eps;
    double lo = floor;
    double hi = Math.max(1.0, floor);
    while (!meetsCoarse.test(hi) && hi < MAX_MULTIPLIER) {
      lo = hi;
      hi = Math.min(2 * hi, MAX_MULTIPLIER);
    }
    if (lo == floor && meetsCoarse.test(lo)) {
      return admitted(planAt, budget, lo);
    }
    hi = Bisection.upperEnd(meetsCoarse, lo, hi, COARSE_TOLERANCE);
    lo = hi * (1 - COARSE_TOLERANCE);
    double h = ledger(planAt.apply(hi)).refinedInterval(delta);
    // within 1e-3 of the least multiplier the tilt towards the budget's epsilon is the right one
    DoublePredicate meets = h < PldOptions.DEFAULT_INTERVAL
        ? s -> tiltedBound(planAt.apply(s), delta, coarse.interval(h)) <= eps
        : meetsCoarse;
    // the finer bound is lower: its root may lie below the coarse bracket
    double[] b = Bisection.widenedDown(meets, lo, hi, floor);
    if (b[0] == floor && meets.test(floor)) {
      return admitted(planAt, budget, floor);
    }
    return admitted(planAt, budget, Bisection.upperEnd(meets, b[0], b[1], RELATIVE_TOLERANCE));
  }

  /**
   * {@code s}, raised by {@link #RELATIVE_TOLERANCE} (doubling after a few steps) until a ledger
   * limited to the budget admits its plan.
   */
  private static double admitted(DoubleFunction<List<Release>> planAt, DpBudget budget, double s) {
    double step = RELATIVE_TOLERANCE;
    for (int i = 0; !admits(planAt.apply(s), budget); i++) {
      if (s >= MAX_MULTIPLIER) {
        return MAX_MULTIPLIER; // admitted: checked first
      }
      s = Math.min(MAX_MULTIPLIER, s * (1 + step));
      if (i >= 8) {
        step *= 2;
      }
    }
    return s;
  }

  /**
   * An upper bound on the plan's epsilon at delta from one composition at {@code options} (tilted
   * towards the budget's epsilon). Far above the least multiplier the plan's epsilon lies far below
   * the budget's, where a composition tilted towards the budget's epsilon lumps its mass: a valid
   * but useless bound (CTCL's Yelp setting at epsilon 2 read as refused at multiplier 1, whose
   * epsilon is 0.83, and the search returned 1.36 for 0.77), so the coarse search uses {@link
   * #bound}.
   */
  private static double tiltedBound(List<Release> plan, double delta, PldOptions options) {
    double e = ledger(plan).epsilonBound(delta, options);
    return Double.isNaN(e) ? Double.POSITIVE_INFINITY : e;
  }

  /** {@link #tiltedBound}, and the untilted bound where the tilted one exceeds the budget's epsilon. */
  private static double bound(List<Release> plan, double delta, PldOptions options) {
    PrivacyLedger ledger = ledger(plan);
    double e = ledger.epsilonBound(delta, options);
    if (!(e <= options.tiltTarget()) && options.tilted()) {
      double untilted = ledger.epsilonBound(delta, options.tiltTarget(Double.NaN));
      e = Double.isNaN(e) ? untilted : Double.isNaN(untilted) ? e : Math.min(e, untilted);
    }
    return Double.isNaN(e) ? Double.POSITIVE_INFINITY : e;
  }

  /** An unlimited ledger holding the plan. */
  private static PrivacyLedger ledger(List<Release> plan) {
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    plan.forEach(ledger::charge);
    return ledger;
  }

  /** Whether a ledger limited to {@code budget} admits every release of the plan, in order. */
  public static boolean admits(List<Release> plan, DpBudget budget) {
    PrivacyLedger ledger = PrivacyLedger.withLimit(budget);
    try {
      plan.forEach(ledger::charge);
      return true;
    } catch (BudgetExceededException e) {
      return false;
    }
  }

  /** The composed epsilon of the plan at {@code delta} (the ledger's accountants, no limit). */
  public static double epsilon(List<Release> plan, double delta) {
    return ledger(plan).epsilon(delta);
  }
}
