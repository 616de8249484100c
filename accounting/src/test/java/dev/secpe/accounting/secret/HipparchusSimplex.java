package dev.secpe.accounting.secret;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hipparchus.optim.MaxIter;
import org.hipparchus.optim.linear.LinearConstraint;
import org.hipparchus.optim.linear.LinearConstraintSet;
import org.hipparchus.optim.linear.LinearObjectiveFunction;
import org.hipparchus.optim.linear.NonNegativeConstraint;
import org.hipparchus.optim.linear.PivotSelectionRule;
import org.hipparchus.optim.linear.Relationship;
import org.hipparchus.optim.linear.SimplexSolver;
import org.hipparchus.optim.nonlinear.scalar.GoalType;

/**
 * An independent reference for the tests and the benchmark: the same LP given to Hipparchus'
 * general two-phase simplex (each upper bound as a row, Bland's rule), as the library's own solver
 * did up to 0.1.0. Test scope only.
 */
final class HipparchusSimplex {

  private HipparchusSimplex() {}

  /** An optimal vertex of {@code problem} by Hipparchus. */
  static double[] solve(SecretLpProblem problem) {
    int n = problem.variables();
    double[] upper = problem.upper();
    int[][] rows = problem.rows();
    double[] capacity = problem.capacity();
    List<LinearConstraint> constraints = new ArrayList<>(rows.length + n);
    for (int j = 0; j < rows.length; j++) {
      double[] a = new double[n];
      for (int k : rows[j]) {
        a[k] = 1.0;
      }
      constraints.add(new LinearConstraint(a, Relationship.LEQ, capacity[j]));
    }
    for (int k = 0; k < n; k++) {
      double[] a = new double[n];
      a[k] = 1.0;
      constraints.add(new LinearConstraint(a, Relationship.LEQ, upper[k]));
    }
    double[] ones = new double[n];
    Arrays.fill(ones, 1.0);
    return new SimplexSolver().optimize(
            new MaxIter(Math.max(10_000, 50 * (n + rows.length))),
            new LinearObjectiveFunction(ones, 0.0),
            new LinearConstraintSet(constraints),
            GoalType.MAXIMIZE,
            new NonNegativeConstraint(true),
            PivotSelectionRule.BLAND)
        .getPoint();
  }
}
