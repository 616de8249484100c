package dev.secpe.accounting.ledger;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Preconditions;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleFunction;
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
 * budget is unreachable), doubles from {@code max(1, floor)} until the plan is admitted, then bisects to a
 * bracket of relative width {@link #RELATIVE_TOLERANCE}, and returns the bracket's upper end:
 * a multiplier whose plan was itself charged and admitted (never an interpolated value). The plan
 * must need less noise as {@code s} grows (more noise never costs more privacy).
 */
public final class PlanCalibrator {

  /** Relative width of the final bracket (the returned multiplier is at most this much too large). */
  public static final double RELATIVE_TOLERANCE = 1e-4;

  /** The largest multiplier tried before the budget is declared unreachable. */
  public static final double MAX_MULTIPLIER = 1e6;

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
    double lo = floor;
    double hi = Math.max(1.0, floor);
    while (!admits(planAt.apply(hi), budget)) {
      lo = hi;
      hi = Math.min(2 * hi, MAX_MULTIPLIER);
    }
    if (lo == floor && admits(planAt.apply(lo), budget)) {
      return lo;
    }
    while (hi - lo > RELATIVE_TOLERANCE * hi) {
      double mid = 0.5 * (lo + hi);
      if (admits(planAt.apply(mid), budget)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
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
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    plan.forEach(ledger::charge);
    return ledger.epsilon(delta);
  }
}
