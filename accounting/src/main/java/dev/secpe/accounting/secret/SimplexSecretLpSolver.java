package dev.secpe.accounting.secret;

import java.util.Arrays;

/**
 * The pure-Java solver of the LP (6): a primal simplex with bounded variables on a dense tableau
 * (Dantzig 1955; the textbook form is Chvátal, "Linear Programming", 1983, ch. 8), written for
 * this LP's shape alone. The LP is {@code max sum_k x_k} subject to {@code sum_{k in rows[j]} x_k
 * <= b_j} and {@code 0 <= x_k <= u_k}, every coefficient 1 and every {@code b_j >= 0}, so the
 * origin is a vertex: the simplex starts there with the slacks as its basis and needs no first
 * phase. An upper bound is kept as a bound, not as a row: a variable that is not basic sits at 0
 * or at its bound, and the tableau has one row per constraint ({@code m x (n + m)}, where a
 * general solver's has {@code (m + n) x (2n + m)}).
 *
 * <p>What it returns is a vertex of the LP (at most m variables strictly between their bounds),
 * optimal to a reduced-cost tolerance of {@value #TOLERANCE}: the vertex, not an interior point of
 * the optimal face, because weight concentrated on fewer records needs less noise
 * (docs/math-decisions.md §3). Which vertex, among equally good ones, is decided by the rules
 * below, always the same way for the same problem: the same input gives the same bits.
 *
 * <ul>
 *   <li>Entering variable: the largest squared reduced cost over its Devex reference weight
 *       (Forrest and Goldfarb, "Steepest-edge simplex algorithms for linear programming", Math.
 *       Programming 57, 1992: an estimate of the steepest edge, updated in linear time per step;
 *       on pieces of 650 and 1,600 variables plus constraints it took 2.3 and 3.5 times fewer
 *       steps than the largest reduced cost), ties to the lowest index. After {@value
 *       #DEGENERATE_RUN} steps in a row that do not raise the objective it takes the lowest index
 *       with an improving reduced cost instead (Bland's rule, which cannot cycle), until a step
 *       raises it again. A cycle can only be a run of such steps, so the method ends on
 *       degenerate and tied problems too.
 *   <li>Ratio test: the least step at which a variable reaches a bound. If the entering variable
 *       reaches its own bound first (or together with a row), it flips to it without a pivot;
 *       otherwise, among the rows whose step is within {@value #TOLERANCE} of the least, the one
 *       whose basic variable has the lowest index leaves (Bland's rule).
 * </ul>
 *
 * <p>Quick for the pieces SecPE's reduction leaves on typical data (tens to a few hundred
 * variables); its tableau grows as {@code m (n + m)}, so {@link SecretNoise.LpSolver#AUTO} hands
 * pieces above {@link SecretLp#SIMPLEX_MAX_SIZE} to OR-Tools when {@code secpe-accounting-ortools}
 * is on the class path, else to the first-order method, whose end point this solver moves to a
 * vertex ({@link FirstOrderSecretLpSolver#crossover}). The caller makes the result exactly
 * feasible ({@link SecretLp#scaleOntoCapacities}).
 */
final class SimplexSecretLpSolver implements SecretLpSolver {

  static final SimplexSecretLpSolver INSTANCE = new SimplexSecretLpSolver();

  /** Reduced costs, pivots and ratio ties are compared to this (the data are 0/1 and O(1)). */
  static final double TOLERANCE = 1e-9;

  /** Steps in a row that leave the objective unchanged before Bland's rule takes over. */
  static final int DEGENERATE_RUN = 50;

  private SimplexSecretLpSolver() {}

  @Override
  public String name() {
    return "SIMPLEX";
  }

  @Override
  public double[] solve(SecretLpProblem problem) {
    return solve(problem, DEGENERATE_RUN);
  }

  /** {@link #solve(SecretLpProblem)} with Bland's rule after {@code degenerateRun} flat steps (0: always). */
  static double[] solve(SecretLpProblem problem, int degenerateRun) {
    return new Tableau(problem).optimise(degenerateRun);
  }

  /** The state of one solve: single-use. */
  private static final class Tableau {
    private final int n; // structural variables 0 .. n-1; slack of row i is n + i
    private final int m;
    private final double[] upper; // per variable; +infinity for slacks
    private final double[][] t; // m x (n + m): B^-1 [A I]
    private final double[] value; // per row: the value of its basic variable
    private final int[] basic; // per row: its basic variable
    private final int[] rowOf; // per variable: its row, or -1 when it is not basic
    private final boolean[] atUpper; // per variable, when not basic: at its upper bound
    private final double[] reduced; // per variable: c_k - c_B B^-1 a_k (0 for basic ones)
    private final double[] weight; // per variable: its Devex reference weight
    private final SecretLpProblem problem;

    Tableau(SecretLpProblem problem) {
      this.problem = problem;
      this.n = problem.variables();
      int[][] rows = problem.rows();
      this.m = rows.length;
      int width = n + m;
      this.upper = new double[width];
      double[] u = problem.upper();
      System.arraycopy(u, 0, upper, 0, n);
      Arrays.fill(upper, n, width, Double.POSITIVE_INFINITY);
      this.t = new double[m][width];
      for (int i = 0; i < m; i++) {
        for (int k : rows[i]) {
          t[i][k] = 1.0;
        }
        t[i][n + i] = 1.0;
      }
      this.value = problem.capacity();
      this.basic = new int[m];
      this.rowOf = new int[width];
      Arrays.fill(rowOf, -1);
      for (int i = 0; i < m; i++) {
        basic[i] = n + i;
        rowOf[n + i] = i;
      }
      this.atUpper = new boolean[width];
      this.reduced = new double[width];
      Arrays.fill(reduced, 0, n, 1.0);
      this.weight = new double[width];
      Arrays.fill(weight, 1.0);
    }

    double[] optimise(int degenerateRun) {
      long limit = Math.max(10_000L, 50L * (n + m));
      int flat = 0; // steps in a row that did not move the objective
      for (long step = 0; ; step++) {
        int entering = entering(flat >= degenerateRun);
        if (entering < 0) {
          return solution();
        }
        if (step >= limit) {
          throw new IllegalStateException("SecretNoise LP (6): the pure-Java simplex did not reach an optimum of "
              + problem + " in " + limit + " steps; choose lpSolver FIRST_ORDER, or add"
              + " secpe-accounting-ortools and choose GLOP");
        }
        double moved = move(entering);
        flat = moved > TOLERANCE ? 0 : flat + 1;
      }
    }

    /**
     * The variable to bring in: one whose move off its bound raises the objective (at 0 with a
     * positive reduced cost, at its upper bound with a negative one), or -1 at an optimum.
     */
    private int entering(boolean bland) {
      int best = -1;
      double bestScore = 0;
      for (int k = 0; k < n + m; k++) {
        if (rowOf[k] >= 0) {
          continue;
        }
        double gain = atUpper[k] ? -reduced[k] : reduced[k];
        if (gain > TOLERANCE) {
          if (bland) {
            return k;
          }
          double score = gain * gain / weight[k];
          if (score > bestScore) {
            best = k;
            bestScore = score;
          }
        }
      }
      return best;
    }

    /** Moves {@code k} off its bound as far as every bound allows; returns the objective's gain. */
    private double move(int k) {
      double dir = atUpper[k] ? -1.0 : 1.0; // the direction x_k moves in
      // the least step at which a basic variable reaches a bound (the basic variable of row i
      // moves by -dir * t[i][k] per unit step)
      double least = Double.POSITIVE_INFINITY;
      for (int i = 0; i < m; i++) {
        least = Math.min(least, limit(i, dir * t[i][k]));
      }
      double step = Math.min(upper[k], least);
      if (step == Double.POSITIVE_INFINITY) {
        throw new IllegalStateException("SecretNoise LP (6): the pure-Java simplex found " + problem
            + " unbounded, which a bounded LP cannot be: a numerical failure");
      }
      int leaving = -1; // among the rows that stop the step (to the tolerance), the lowest basic variable
      if (upper[k] > least) {
        for (int i = 0; i < m; i++) {
          if (limit(i, dir * t[i][k]) <= least + TOLERANCE && (leaving < 0 || basic[i] < basic[leaving])) {
            leaving = i;
          }
        }
      }
      for (int i = 0; i < m; i++) {
        value[i] -= dir * t[i][k] * step;
      }
      double gain = Math.abs(reduced[k]) * step;
      if (leaving < 0) { // x_k reaches its own bound first: a flip, no pivot
        atUpper[k] = !atUpper[k];
        return gain;
      }
      double enteringValue = atUpper[k] ? upper[k] - step : step;
      int out = basic[leaving];
      boolean outAtUpper = dir * t[leaving][k] < 0;
      pivot(leaving, k);
      rowOf[out] = -1;
      atUpper[out] = outAtUpper;
      atUpper[k] = false;
      value[leaving] = enteringValue;
      return gain;
    }

    /**
     * The step at which the basic variable of row {@code i} reaches a bound when it moves by
     * {@code -alpha} per unit step: its value over alpha down to 0, its room to its upper bound
     * up; infinite when it does not move (to the tolerance) or has no bound that way.
     */
    private double limit(int i, double alpha) {
      if (alpha > TOLERANCE) {
        return Math.max(0.0, value[i]) / alpha;
      }
      if (alpha < -TOLERANCE && upper[basic[i]] < Double.POSITIVE_INFINITY) {
        return Math.max(0.0, upper[basic[i]] - value[i]) / -alpha;
      }
      return Double.POSITIVE_INFINITY;
    }

    /** Makes {@code k} the basic variable of row {@code r}: Gauss–Jordan on column k. */
    private void pivot(int r, int k) {
      double[] row = t[r];
      double p = row[k];
      int width = n + m;
      for (int c = 0; c < width; c++) {
        row[c] /= p;
      }
      row[k] = 1.0;
      for (int i = 0; i < m; i++) {
        double f = t[i][k];
        if (i == r || f == 0.0) {
          continue;
        }
        double[] ti = t[i];
        for (int c = 0; c < width; c++) {
          ti[c] -= f * row[c];
        }
        ti[k] = 0.0;
      }
      double f = reduced[k];
      for (int c = 0; c < width; c++) {
        reduced[c] -= f * row[c];
      }
      reduced[k] = 0.0;
      int out = basic[r];
      double wk = weight[k];
      for (int c = 0; c < width; c++) {
        if (rowOf[c] < 0 && c != k) {
          weight[c] = Math.max(weight[c], row[c] * row[c] * wk);
        }
      }
      weight[out] = Math.max(1.0, row[out] * row[out] * wk);
      basic[r] = k;
      rowOf[k] = r;
    }

    private double[] solution() {
      double[] x = new double[n];
      for (int k = 0; k < n; k++) {
        x[k] = rowOf[k] >= 0 ? value[rowOf[k]] : atUpper[k] ? upper[k] : 0.0;
      }
      return x;
    }
  }
}
