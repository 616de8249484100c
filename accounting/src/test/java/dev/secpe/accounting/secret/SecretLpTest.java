package dev.secpe.accounting.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The LP (6) without OR-Tools: the reduction (exclusive records aggregated, pieces split) and both
 * pure-Java solvers, against closed-form optima and against the unreduced LP solved directly.
 */
class SecretLpTest {

  private static final SecretNoise.LpSolver[] PURE_JAVA = {
    SecretNoise.LpSolver.AUTO, SecretNoise.LpSolver.SIMPLEX, SecretNoise.LpSolver.FIRST_ORDER
  };

  @Test
  void exclusiveRecordsTakeTheirCapacityInRecordOrder() {
    // five records holding only secret 0, eta = 2.3: optimum 2.3, laid out as 1, 1, 0.3, 0, 0
    int[][] members = {{0, 1, 2, 3, 4}};
    for (SecretNoise.LpSolver s : PURE_JAVA) {
      double[] w = SecretLp.solve(members, new double[] {2.3}, 6, s);
      assertThat(w[0]).isEqualTo(1.0);
      assertThat(w[1]).isEqualTo(1.0);
      assertThat(w[2]).isCloseTo(0.3, within(1e-12));
      assertThat(w[3]).isZero();
      assertThat(w[4]).isZero();
      assertThat(w[5]).as("holds no secret").isEqualTo(1.0);
    }
  }

  @Test
  void triangleOfSharedRecordsHasItsUniqueOptimum() {
    // records {0,1}, {1,2}, {0,2}; each constraint w_x + w_y <= 0.8; summing all three gives
    // 2 sum(w) <= 2.4, attained only at w = 0.4 each
    int[][] members = {{0, 2}, {0, 1}, {1, 2}};
    for (SecretNoise.LpSolver s : PURE_JAVA) {
      double[] w = SecretLp.solve(members, new double[] {0.8, 0.8, 0.8}, 3, s);
      for (double v : w) {
        assertThat(v).as("%s", s).isCloseTo(0.4, within(1e-4));
      }
    }
  }

  @Test
  void aRecordHoldingThreeSecretsGivesWayToTheirOwnRecords() {
    // record 0 holds secrets 0, 1, 2; each secret has three records of its own; eta = 1.5.
    // w_0 + u_j <= 1.5 for each j, so the objective 3 * 1.5 + w_0 * (1 - 3) is largest at w_0 = 0.
    int[][] members = {{0, 1, 2, 3}, {0, 4, 5, 6}, {0, 7, 8, 9}};
    for (SecretNoise.LpSolver s : PURE_JAVA) {
      double[] w = SecretLp.solve(members, new double[] {1.5, 1.5, 1.5}, 10, s);
      assertThat(w[0]).as("%s", s).isCloseTo(0.0, within(1e-4));
      assertThat(Arrays.stream(w).sum()).as("%s", s).isCloseTo(4.5, within(1e-4));
    }
  }

  /** Random instances with shared records: exactly feasible, and as good as the unreduced LP. */
  @Property(tries = 40)
  void pureJavaSolversMatchTheUnreducedLp(
      @ForAll @IntRange(min = 1, max = 40) int n,
      @ForAll @IntRange(min = 1, max = 7) int m,
      @ForAll @DoubleRange(min = 0.05, max = 0.6) double prob,
      @ForAll @DoubleRange(min = 0.1, max = 3.0) double eta,
      @ForAll long seed) {
    int[][] members = membersOf(simulate(n, m, prob, seed), m);
    double[] etas = new double[m];
    Arrays.fill(etas, eta);
    double reference = unreducedOptimum(members, etas, n);
    for (SecretNoise.LpSolver s : PURE_JAVA) {
      double[] w = SecretLp.solve(members, etas, n, s);
      assertFeasible(members, etas, w);
      double tolerance = s == SecretNoise.LpSolver.FIRST_ORDER ? 1e-4 * Math.max(1, reference) : 1e-6;
      assertThat(Arrays.stream(w).sum()).as("%s", s).isCloseTo(reference, within(tolerance));
    }
  }

  @Test
  void firstOrderCertifiesItsGapOnTheFigure3Simulation() {
    // SecPE App. B.1: every record holds each secret with probability 0.01, so nearly every
    // record is shared and the LP is one piece (too large for a dense simplex at N = 8000)
    int n = 8000;
    int m = 400;
    int[][] members = membersOf(simulate(n, m, 0.01, 42), m);
    double[] etas = new double[m];
    Arrays.fill(etas, 0.76);
    SecretLpProblem problem = pieceOf(members, etas, n);
    FirstOrderSecretLpSolver.Solution sol = FirstOrderSecretLpSolver.run(problem);
    assertThat(sol.dualBound() - sol.objective())
        .isLessThanOrEqualTo(FirstOrderSecretLpSolver.RELATIVE_GAP * sol.dualBound());
    double[] w = SecretLp.solve(members, etas, n, SecretNoise.LpSolver.AUTO);
    assertFeasible(members, etas, w);
    assertThat(Arrays.stream(w).sum()).isGreaterThanOrEqualTo(sol.dualBound() * (1 - 2 * FirstOrderSecretLpSolver.RELATIVE_GAP));
  }

  @Test
  void orToolsSolversNameTheModuleTheyNeed() {
    for (SecretNoise.LpSolver s : new SecretNoise.LpSolver[] {SecretNoise.LpSolver.GLOP, SecretNoise.LpSolver.PDLP}) {
      assertThatThrownBy(() -> SecretLp.solve(new int[][] {{0, 1}, {1, 2}}, new double[] {0.5, 0.5}, 3, s))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("secpe-accounting-ortools")
          .hasMessageContaining(s.name());
    }
  }

  @Test
  void problemValidationNamesTheField() {
    assertThatThrownBy(() -> new SecretLpProblem(new double[] {0}, new int[][] {{0}}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("upper[0]=0");
    assertThatThrownBy(() -> new SecretLpProblem(new double[] {1}, new int[][] {{1}}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rows[0] holding 1");
    assertThatThrownBy(() -> new SecretLpProblem(new double[] {1}, new int[][] {{0}}, new double[] {-1}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("capacity[0]=-1");
  }

  /** The whole LP as one piece (no aggregation): every record holding a secret is a variable. */
  static SecretLpProblem pieceOf(int[][] members, double[] etas, int n) {
    int[] var = variableOf(members, n);
    int k = Arrays.stream(var).max().orElse(-1) + 1;
    double[] upper = new double[k];
    Arrays.fill(upper, 1.0);
    int[][] rows = new int[members.length][];
    for (int j = 0; j < members.length; j++) {
      rows[j] = Arrays.stream(members[j]).map(i -> var[i]).toArray();
    }
    return new SecretLpProblem(upper, rows, etas);
  }

  /**
   * max sum w over all records, each constraint over its records, 0 <= w <= 1, without the
   * reduction: Hipparchus' general simplex on the whole LP, plus 1 for each record holding no secret.
   */
  static double unreducedOptimum(int[][] members, double[] etas, int n) {
    SecretLpProblem whole = pieceOf(members, etas, n);
    return Arrays.stream(HipparchusSimplex.solve(whole)).sum() + (n - whole.variables());
  }

  /** Each record's variable in {@link #pieceOf}: records numbered as they first hold a secret, -1 if none. */
  static int[] variableOf(int[][] members, int n) {
    int[] var = new int[n];
    Arrays.fill(var, -1);
    int k = 0;
    for (int[] r : members) {
      for (int i : r) {
        if (var[i] < 0) {
          var[i] = k++;
        }
      }
    }
    return var;
  }

  static void assertFeasible(int[][] members, double[] etas, double[] w) {
    for (double v : w) {
      assertThat(v).isBetween(0.0, 1.0);
    }
    for (int j = 0; j < members.length; j++) {
      double s = 0;
      for (int i : members[j]) {
        s += w[i];
      }
      assertThat(s).as("constraint %s", j).isLessThanOrEqualTo(etas[j]);
    }
  }

  static int[][] membersOf(List<int[]> records, int m) {
    List<List<Integer>> out = new ArrayList<>();
    for (int j = 0; j < m; j++) {
      out.add(new ArrayList<>());
    }
    for (int i = 0; i < records.size(); i++) {
      for (int j : records.get(i)) {
        out.get(j).add(i);
      }
    }
    return out.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
  }

  static List<int[]> simulate(int n, int m, double prob, long seed) {
    return SecretNoiseTest.simulate(n, m, prob, seed);
  }
}
