package dev.secpe.accounting;

import java.util.function.DoublePredicate;

/**
 * The bisection the noise calibrators share: for a predicate that holds from some point up (more
 * noise never costs more privacy), the upper end of a bracket around that point, so the value
 * returned is one the predicate was evaluated at and held (never an interpolated one).
 */
public final class Bisection {

  private Bisection() {}

  /**
   * The upper end of a bracket of relative width {@code tolerance} between {@code lo} (where
   * {@code meets} fails) and {@code hi} (where it holds): the least point meeting it, rounded up.
   */
  public static double upperEnd(DoublePredicate meets, double lo, double hi, double tolerance) {
    double l = lo;
    double u = hi;
    while (u - l > tolerance * u) {
      double mid = 0.5 * (l + u);
      if (meets.test(mid)) {
        u = mid;
      } else {
        l = mid;
      }
    }
    return u;
  }

  /**
   * A bracket {@code {lo, hi}} below {@code hi} (where {@code meets} holds) whose lower end fails
   * it or is {@code floor}: {@code lo} itself where it fails, else the bracket widened downwards,
   * its width doubling. For a finer bound, which holds a little below a coarser one's bracket.
   */
  public static double[] widenedDown(DoublePredicate meets, double lo, double hi, double floor) {
    double l = lo;
    double u = hi;
    double width = hi - lo;
    while (l > floor && meets.test(l)) {
      u = l;
      width *= 2;
      l = Math.max(floor, u - width);
    }
    return new double[] {l, u};
  }
}
