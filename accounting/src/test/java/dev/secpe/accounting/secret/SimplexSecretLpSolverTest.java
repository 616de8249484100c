package dev.secpe.accounting.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The library's own simplex for the LP (6), against optima worked by hand, against Hipparchus'
 * general simplex on random pieces (an independent implementation, test scope only: {@link
 * HipparchusSimplex}), and against the certified dual bound of the first-order method. Every
 * answer must be feasible, optimal and a vertex, and the same bits for the same problem.
 */
class SimplexSecretLpSolverTest {

  private static double[] solve(double[] upper, int[][] rows, double[] capacity) {
    return SimplexSecretLpSolver.INSTANCE.solve(new SecretLpProblem(upper, rows, capacity));
  }

  @Test
  void aZeroCapacityHoldsItsVariablesAtZero() {
    // x0 + x1 <= 0 forces x0 = x1 = 0; then x2 <= 1 under x1 + x2 <= 1: the optimum (0, 0, 1).
    // The start is degenerate: the first row's slack is basic at 0.
    double[] x = solve(new double[] {1, 1, 1}, new int[][] {{0, 1}, {1, 2}}, new double[] {0, 1});
    assertThat(x).containsExactly(new double[] {0, 0, 1}, within(1e-12));
  }

  @Test
  void aSharedRecordGivesWayToTwoSecretsOwnRecords() {
    // x0 a record holding both secrets (upper 1), x1 and x2 the records holding only one (three
    // and two of them): x0 + x1 <= 2.5, x0 + x2 <= 0.5. The objective is x0 + x1 + x2 <= 2.5 + 0.5
    // - x0, so the only optimum has x0 = 0, x1 = 2.5, x2 = 0.5.
    double[] x = solve(new double[] {1, 3, 2}, new int[][] {{0, 1}, {0, 2}}, new double[] {2.5, 0.5});
    assertThat(x).containsExactly(new double[] {0, 2.5, 0.5}, within(1e-12));
  }

  @Test
  void boundsBelowTheCapacitiesAreReachedWithoutAPivot() {
    // every row has room for more than its variables' bounds: the optimum is every x at its bound
    double[] x = solve(new double[] {1, 2, 1}, new int[][] {{0, 1}, {1, 2}, {0, 2}}, new double[] {3.5, 4, 2});
    assertThat(x).containsExactly(new double[] {1, 2, 1}, within(0.0));
  }

  @Test
  void identicalRowsAndTiedRatiosEndAtTheOptimum() {
    // five copies of x0 + x1 + x2 <= 1 and x2 <= 0.25 (degenerate at every vertex: the copies
    // are tight together); max = 1, reached on a face; the answer is one of its vertices
    int[][] rows = {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {2}};
    double[] x = solve(new double[] {1, 1, 1}, rows, new double[] {1, 1, 1, 1, 1, 0.25});
    assertThat(Arrays.stream(x).sum()).isCloseTo(1.0, within(1e-12));
    assertVertex(new SecretLpProblem(new double[] {1, 1, 1}, rows, new double[] {1, 1, 1, 1, 1, 0.25}), x);
  }

  /**
   * Random pieces with the degeneracy SecPE's data bring: capacities that are 0, whole numbers or
   * halves (ties in the ratio test), repeated rows, aggregated variables with bounds above 1.
   */
  @Property(tries = 200)
  void matchesHipparchusOnRandomPieces(
      @ForAll @IntRange(min = 1, max = 30) int n,
      @ForAll @IntRange(min = 1, max = 12) int m,
      @ForAll @IntRange(min = 2, max = 60) int percent,
      @ForAll long seed) {
    SecretLpProblem p = randomPiece(n, m, percent / 100.0, new SplittableRandom(seed));
    double[] x = SimplexSecretLpSolver.INSTANCE.solve(p);
    double reference = Arrays.stream(HipparchusSimplex.solve(p)).sum();
    assertThat(Arrays.stream(x).sum()).isCloseTo(reference, within(1e-9 * Math.max(1, reference)));
    assertFeasible(p, x, 1e-9);
    assertVertex(p, x);
    assertThat(SimplexSecretLpSolver.INSTANCE.solve(p)).as("the same bits again").isEqualTo(x);
    // Bland's rule from the first step (the rule the solver falls back on after a run of steps
    // that do not raise the objective, which these small pieces rarely reach)
    double[] bland = SimplexSecretLpSolver.solve(p, 0);
    assertThat(Arrays.stream(bland).sum()).isCloseTo(reference, within(1e-9 * Math.max(1, reference)));
    assertFeasible(p, bland, 1e-9);
    assertVertex(p, bland);
  }

  @Test
  void solvesAPieceTheGeneralSimplexGaveUpOn() {
    // SecPE App. B.1's simulation at 500 records and 150 secrets, each held with probability 0.04:
    // one piece of 650 variables plus constraints, which AUTO gives the simplex (up to 800).
    // Hipparchus' general simplex stopped at its 32,500-iteration limit on it; the optimum is
    // checked against the first-order method's dual bound, which no feasible point can exceed
    int[][] members = SecretLpTest.membersOf(SecretNoiseTest.simulate(500, 150, 0.04, 7), 150);
    double[] eta = new double[150];
    Arrays.fill(eta, 0.76);
    SecretLpProblem p = SecretLpTest.pieceOf(members, eta, 500);
    assertThat(p.variables() + p.capacity().length).isLessThanOrEqualTo(SecretLp.SIMPLEX_MAX_SIZE);
    double[] x = SimplexSecretLpSolver.INSTANCE.solve(p);
    FirstOrderSecretLpSolver.Solution bound = FirstOrderSecretLpSolver.run(p);
    double objective = Arrays.stream(x).sum();
    assertFeasible(p, x, 1e-9);
    assertVertex(p, x);
    assertThat(objective)
        .isLessThanOrEqualTo(bound.dualBound() + 1e-9)
        .isGreaterThanOrEqualTo(bound.dualBound() * (1 - FirstOrderSecretLpSolver.RELATIVE_GAP));
    double[] w = SecretLp.solve(members, eta, 500, SecretNoise.LpSolver.SIMPLEX);
    assertThat(Arrays.stream(w).sum()).isCloseTo(objective, within(1e-9));
  }

  static SecretLpProblem randomPiece(int n, int m, double prob, SplittableRandom rnd) {
    double[] upper = new double[n];
    for (int k = 0; k < n; k++) {
      upper[k] = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(5) : 1; // a third aggregate a secret's own records
    }
    List<int[]> rows = new ArrayList<>();
    List<Double> capacity = new ArrayList<>();
    for (int j = 0; j < m; j++) {
      if (j > 0 && rnd.nextInt(5) == 0) { // a repeated row
        int copy = rnd.nextInt(j);
        rows.add(rows.get(copy).clone());
        capacity.add(capacity.get(copy));
        continue;
      }
      List<Integer> row = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        if (rnd.nextDouble() < prob) {
          row.add(k);
        }
      }
      rows.add(row.stream().mapToInt(Integer::intValue).toArray());
      capacity.add(switch (rnd.nextInt(4)) {
        case 0 -> 0.0;
        case 1 -> (double) rnd.nextInt(4);
        case 2 -> rnd.nextInt(8) / 2.0;
        default -> 3 * rnd.nextDouble();
      });
    }
    return new SecretLpProblem(upper, rows.toArray(new int[0][]), capacity.stream().mapToDouble(Double::doubleValue).toArray());
  }

  static void assertFeasible(SecretLpProblem p, double[] x, double tolerance) {
    double[] u = p.upper();
    for (int k = 0; k < x.length; k++) {
      assertThat(x[k]).as("x[%d]", k).isBetween(-tolerance, u[k] + tolerance);
    }
    int[][] rows = p.rows();
    double[] b = p.capacity();
    for (int j = 0; j < rows.length; j++) {
      double s = 0;
      for (int k : rows[j]) {
        s += x[k];
      }
      assertThat(s).as("row %d", j).isLessThanOrEqualTo(b[j] + tolerance);
    }
  }

  /**
   * A vertex of {x : A x <= b, 0 <= x <= u} has linearly independent columns of A (restricted to
   * its tight rows) for the variables strictly between their bounds; checked as their number
   * being at most the number of tight rows, and their columns over the tight rows having full rank.
   */
  static void assertVertex(SecretLpProblem p, double[] x) {
    double[] u = p.upper();
    int[][] rows = p.rows();
    double[] b = p.capacity();
    List<Integer> between = new ArrayList<>();
    for (int k = 0; k < x.length; k++) {
      if (x[k] > 1e-9 && x[k] < u[k] - 1e-9) {
        between.add(k);
      }
    }
    List<double[]> tight = new ArrayList<>();
    for (int j = 0; j < rows.length; j++) {
      double s = 0;
      for (int k : rows[j]) {
        s += x[k];
      }
      if (s >= b[j] - 1e-9) {
        double[] r = new double[between.size()];
        for (int k : rows[j]) {
          int c = between.indexOf(k);
          if (c >= 0) {
            r[c] = 1;
          }
        }
        tight.add(r);
      }
    }
    assertThat(rank(tight, between.size())).as("rank of the free columns over the tight rows").isEqualTo(between.size());
  }

  private static int rank(List<double[]> rows, int columns) {
    double[][] a = rows.stream().map(double[]::clone).toArray(double[][]::new);
    int rank = 0;
    for (int c = 0; c < columns && rank < a.length; c++) {
      int pivot = -1;
      for (int r = rank; r < a.length; r++) {
        if (Math.abs(a[r][c]) > 1e-9 && (pivot < 0 || Math.abs(a[r][c]) > Math.abs(a[pivot][c]))) {
          pivot = r;
        }
      }
      if (pivot < 0) {
        continue;
      }
      double[] tmp = a[rank];
      a[rank] = a[pivot];
      a[pivot] = tmp;
      for (int r = 0; r < a.length; r++) {
        if (r != rank) {
          double f = a[r][c] / a[rank][c];
          for (int k = c; k < columns; k++) {
            a[r][k] -= f * a[rank][k];
          }
        }
      }
      rank++;
    }
    return rank;
  }
}
