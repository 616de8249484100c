package dev.secpe.accounting.secret;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.optim.MaxIter;
import org.hipparchus.optim.PointValuePair;
import org.hipparchus.optim.linear.LinearConstraint;
import org.hipparchus.optim.linear.LinearConstraintSet;
import org.hipparchus.optim.linear.LinearObjectiveFunction;
import org.hipparchus.optim.linear.NonNegativeConstraint;
import org.hipparchus.optim.linear.PivotSelectionRule;
import org.hipparchus.optim.linear.Relationship;
import org.hipparchus.optim.linear.SimplexSolver;
import org.hipparchus.optim.nonlinear.scalar.GoalType;

/**
 * The pure-Java solver of the LP (6): Hipparchus' two-phase simplex on a dense tableau, with each
 * upper bound as a row. Exact (a vertex, optimal to the tableau's 1e-6 tolerance), and quick for
 * the pieces SecPE's reduction leaves on typical data (tens to a few hundred variables); its
 * tableau grows as (variables + constraints) squared, so {@link SecretNoise.LpSolver#AUTO} hands
 * pieces above {@link SecretLp#SIMPLEX_MAX_SIZE} to OR-Tools when {@code
 * secpe-accounting-ortools} is on the class path.
 */
final class SimplexSecretLpSolver implements SecretLpSolver {

  static final SimplexSecretLpSolver INSTANCE = new SimplexSecretLpSolver();

  private SimplexSecretLpSolver() {}

  @Override
  public String name() {
    return "SIMPLEX";
  }

  @Override
  public double[] solve(SecretLpProblem problem) {
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
    try {
      PointValuePair p = new SimplexSolver().optimize(
          new MaxIter(Math.max(10_000, 50 * (n + rows.length))),
          new LinearObjectiveFunction(ones, 0.0),
          new LinearConstraintSet(constraints),
          GoalType.MAXIMIZE,
          new NonNegativeConstraint(true),
          PivotSelectionRule.BLAND);
      return p.getPoint();
    } catch (MathIllegalStateException e) {
      throw new IllegalStateException(
          "SecretNoise LP (6): the pure-Java simplex did not solve " + problem + " ("
              + e.getClass().getSimpleName() + "); add secpe-accounting-ortools and choose GLOP");
    }
  }
}
