package dev.secpe.accounting.secret;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The pure-Java solver for large pieces of the LP (6): the primal-dual hybrid gradient method
 * (Chambolle and Pock, 2011) with their diagonal preconditioning, which for this 0/1 matrix is
 * step {@code 1/(constraints a variable is in)} for each variable and {@code 1/(variables in the
 * constraint)} for each dual, so no step size is tuned. Every 50 iterations the iterate is made
 * feasible (clamped to its bounds, each violated constraint scaled onto its capacity) and the
 * duality gap is measured against the dual bound {@code b'y + sum_k u_k max(0, 1 - (A'y)_k)},
 * which holds for any {@code y >= 0}. It stops when the best feasible point is within a relative
 * {@link #RELATIVE_GAP} of that bound, or after {@link #MAX_ITERATIONS}, and returns the best
 * feasible point: always feasible, optimal to the gap it reached (which costs utility only, as
 * sigma is calibrated to the rho that comes out). Memory and time per iteration are linear in
 * the non-zeros.
 */
final class FirstOrderSecretLpSolver implements SecretLpSolver {

  static final FirstOrderSecretLpSolver INSTANCE = new FirstOrderSecretLpSolver();

  /** Stop when (dual bound - objective) is at most this share of the dual bound. */
  static final double RELATIVE_GAP = 1e-5;

  /** The most iterations. */
  static final int MAX_ITERATIONS = 200_000;

  private static final int CHECK_EVERY = 50;

  private FirstOrderSecretLpSolver() {}

  @Override
  public String name() {
    return "FIRST_ORDER";
  }

  @Override
  public double[] solve(SecretLpProblem problem) {
    return crossover(problem, run(problem).x);
  }

  /** Above this many free variables plus constraints, {@link #crossover} leaves the point as it is. */
  static final int CROSSOVER_MAX_SIZE = 4_000;

  /**
   * From a feasible point to a vertex at least as good: variables at a bound (to 1e-9 of it) are
   * fixed there, and the LP over the others, with the capacities they leave, is solved by the
   * simplex, which returns a vertex of it (so, with the fixed ones, of the whole LP). This
   * matters for sigma, not for the objective: a first-order method ends inside the face of
   * optimal points, where weight is spread over more records than at a vertex, and a
   * Poisson-binomial spread over more records needs more noise (on the paper's Figure 3
   * simulation, sigma 1.587 against 1.166). Pieces whose free part is too large for the dense
   * simplex are returned as they are.
   */
  static double[] crossover(SecretLpProblem problem, double[] x) {
    double[] u = problem.upper();
    int[][] rows = problem.rows();
    double[] b = problem.capacity();
    int n = x.length;
    double[] out = x.clone();
    int[] free = new int[n];
    Arrays.fill(free, -1);
    int nFree = 0;
    for (int k = 0; k < n; k++) {
      if (out[k] <= 1e-9 * u[k]) {
        out[k] = 0;
      } else if (out[k] >= u[k] * (1 - 1e-9)) {
        out[k] = u[k];
      } else {
        free[k] = nFree++;
      }
    }
    List<int[]> subRows = new ArrayList<>();
    List<Double> subCap = new ArrayList<>();
    for (int j = 0; j < rows.length; j++) {
      double fixed = 0;
      int count = 0;
      for (int k : rows[j]) {
        if (free[k] < 0) {
          fixed += out[k];
        } else {
          count++;
        }
      }
      if (count > 0) {
        int[] r = new int[count];
        int c = 0;
        for (int k : rows[j]) {
          if (free[k] >= 0) {
            r[c++] = free[k];
          }
        }
        subRows.add(r);
        subCap.add(Math.max(0.0, b[j] - fixed));
      }
    }
    if (nFree == 0 || nFree + subRows.size() > CROSSOVER_MAX_SIZE) {
      return feasible(out, u, rows, b);
    }
    double[] subUpper = new double[nFree];
    for (int k = 0; k < n; k++) {
      if (free[k] >= 0) {
        subUpper[free[k]] = u[k];
      }
    }
    double[] sub = SimplexSecretLpSolver.INSTANCE.solve(new SecretLpProblem(
        subUpper, subRows.toArray(new int[0][]), subCap.stream().mapToDouble(Double::doubleValue).toArray()));
    for (int k = 0; k < n; k++) {
      if (free[k] >= 0) {
        out[k] = sub[free[k]];
      }
    }
    double[] result = feasible(out, u, rows, b);
    return sum(result) >= sum(x) * (1 - 1e-12) ? result : x;
  }

  /** A solution and the certified gap. */
  record Solution(double[] x, double objective, double dualBound, int iterations) {}

  static Solution run(SecretLpProblem problem) {
    int n = problem.variables();
    double[] u = problem.upper();
    int[][] rows = problem.rows();
    double[] b = problem.capacity();
    int m = rows.length;
    int[] colCount = new int[n];
    for (int[] r : rows) {
      for (int k : r) {
        colCount[k]++;
      }
    }
    double[] tau = new double[n];
    for (int k = 0; k < n; k++) {
      tau[k] = colCount[k] == 0 ? 0 : 0.99 / colCount[k];
    }
    double[] sigma = new double[m];
    for (int j = 0; j < m; j++) {
      sigma[j] = rows[j].length == 0 ? 0 : 0.99 / rows[j].length;
    }
    double[] x = new double[n];
    for (int k = 0; k < n; k++) {
      x[k] = colCount[k] == 0 ? u[k] : 0.0; // a variable in no constraint takes its bound
    }
    double[] y = new double[m];
    double[] aty = new double[n];
    double[] xPrev = new double[n];
    double[] best = feasible(x, u, rows, b);
    double bestObjective = sum(best);
    double bestBound = Double.POSITIVE_INFINITY;
    int it = 0;
    while (it < MAX_ITERATIONS) {
      it++;
      System.arraycopy(x, 0, xPrev, 0, n);
      for (int k = 0; k < n; k++) {
        if (colCount[k] > 0) {
          x[k] = Math.min(u[k], Math.max(0.0, x[k] + tau[k] * (1.0 - aty[k])));
        }
      }
      Arrays.fill(aty, 0.0);
      for (int j = 0; j < m; j++) {
        double ax = 0;
        for (int k : rows[j]) {
          ax += 2 * x[k] - xPrev[k];
        }
        y[j] = Math.max(0.0, y[j] + sigma[j] * (ax - b[j]));
        if (y[j] != 0) {
          for (int k : rows[j]) {
            aty[k] += y[j];
          }
        }
      }
      if (it % CHECK_EVERY == 0) {
        double bound = 0;
        for (int j = 0; j < m; j++) {
          bound += b[j] * y[j];
        }
        for (int k = 0; k < n; k++) {
          bound += u[k] * Math.max(0.0, 1.0 - aty[k]);
        }
        bestBound = Math.min(bestBound, bound);
        double[] f = feasible(x, u, rows, b);
        double obj = sum(f);
        if (obj > bestObjective) {
          best = f;
          bestObjective = obj;
        }
        if (bestBound - bestObjective <= RELATIVE_GAP * Math.max(1.0, Math.abs(bestBound))) {
          break;
        }
      }
    }
    return new Solution(best, bestObjective, bestBound, it);
  }

  /** x clamped to [0, u], then each violated constraint scaled onto its capacity (only lowers x). */
  static double[] feasible(double[] x, double[] u, int[][] rows, double[] b) {
    double[] f = new double[x.length];
    for (int k = 0; k < x.length; k++) {
      f[k] = Math.min(u[k], Math.max(0.0, x[k]));
    }
    SecretLp.scaleOntoCapacities(rows, b, f);
    return f;
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double d : v) {
      s += d;
    }
    return s;
  }
}
