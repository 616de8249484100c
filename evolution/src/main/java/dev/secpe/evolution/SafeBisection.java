package dev.secpe.evolution;

import java.util.function.DoubleUnaryOperator;
import java.util.function.Supplier;

/**
 * The least noise multiplier whose epsilon (a decreasing function of it) meets a target, found
 * by doubling then bisection and returned from the safe side: the value returned always had its
 * epsilon evaluated and found {@code <= target}. Shared by DPGA's vote and CTCL's DP-SGD
 * calibrations.
 */
final class SafeBisection {

  /** Relative width of the final bracket. */
  static final double RELATIVE_TOLERANCE = 1e-4;

  private SafeBisection() {}

  /**
   * @param epsilonAt epsilon as a function of the multiplier (non-increasing)
   * @param target the epsilon to meet
   * @param floor the smallest multiplier considered (returned if it already meets the target)
   * @param unreachable the message when no multiplier up to 1e6 meets the target
   */
  static double least(DoubleUnaryOperator epsilonAt, double target, double floor, Supplier<String> unreachable) {
    double lo = floor;
    double hi = Math.max(1.0, floor);
    while (epsilonAt.applyAsDouble(hi) > target) {
      lo = hi;
      hi *= 2;
      if (hi > 1e6) {
        throw new IllegalStateException(unreachable.get());
      }
    }
    if (lo == floor && epsilonAt.applyAsDouble(lo) <= target) {
      return lo;
    }
    while (hi - lo > RELATIVE_TOLERANCE * hi) {
      double mid = 0.5 * (lo + hi);
      if (epsilonAt.applyAsDouble(mid) <= target) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }
}
