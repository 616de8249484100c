package dev.secpe.accounting.ortools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.secret.SecretLpProblem;
import dev.secpe.accounting.secret.SecretLpSolver;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.accounting.secret.SecretNoiseResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * OR-Tools as a second, independent solver of SecPE's LP (6): registered through ServiceLoader,
 * and agreeing with the pure-Java simplex and first-order method of secpe-accounting.
 */
class OrToolsSecretLpSolverTest {

  private static final SecretNoise.LpSolver[] ALL = SecretNoise.LpSolver.values();

  @Test
  void bothSolversAreRegistered() {
    List<String> names = new ArrayList<>();
    ServiceLoader.load(SecretLpSolver.class).forEach(s -> names.add(s.name()));
    assertThat(names).containsExactlyInAnyOrder("GLOP", "PDLP");
  }

  @Test
  void glopSolvesTheTriangleToItsUniqueOptimum() {
    // w01 + w02 <= 0.8, w01 + w12 <= 0.8, w02 + w12 <= 0.8: optimum 1.2 at 0.4 each
    SecretLpProblem p = new SecretLpProblem(new double[] {1, 1, 1},
        new int[][] {{0, 1}, {0, 2}, {1, 2}}, new double[] {0.8, 0.8, 0.8});
    double[] x = new GlopSecretLpSolver().solve(p);
    for (double v : x) {
      assertThat(v).isCloseTo(0.4, within(1e-9));
    }
  }

  /** The LP objective and sigma agree across all five solver settings on instances with shared records. */
  @Property(tries = 20)
  void everySolverReachesTheSameOptimum(
      @ForAll @IntRange(min = 5, max = 200) int n,
      @ForAll @IntRange(min = 1, max = 12) int m,
      @ForAll @DoubleRange(min = 0.02, max = 0.4) double prob,
      @ForAll long seed) {
    List<int[]> records = simulate(n, m, prob, seed);
    SecretBudget budget = new SecretBudget(0.01, 0.05);
    double[] objective = new double[ALL.length];
    for (int s = 0; s < ALL.length; s++) {
      SecretNoiseResult r = SecretNoise.builder().records(records, m).uniformBudget(budget)
          .shiftMultiplier(1).lpSolver(ALL[s]).solve();
      objective[s] = Arrays.stream(r.weights()).sum();
    }
    double glop = objective[Arrays.asList(ALL).indexOf(SecretNoise.LpSolver.GLOP)];
    for (int s = 0; s < ALL.length; s++) {
      double tol = ALL[s] == SecretNoise.LpSolver.PDLP || ALL[s] == SecretNoise.LpSolver.FIRST_ORDER
          ? 1e-3 * Math.max(1, glop) : 1e-6;
      assertThat(objective[s]).as("%s vs GLOP", ALL[s]).isCloseTo(glop, within(tol));
    }
  }

  @Test
  void theSolversChoiceAmongEqualOptimaDoesNotDecideSigma() {
    // three records holding one secret: GLOP used to return a vertex (sigma 1.867) and PDLP an
    // interior point (2.559); the reduction lays the weight out the same way for every solver
    List<int[]> records = new ArrayList<>(List.of(new int[] {0}, new int[] {0}, new int[] {0}));
    for (int i = 0; i < 100; i++) {
      records.add(new int[0]);
    }
    SecretBudget budget = new SecretBudget(1e-4, 1e-3);
    for (SecretNoise.LpSolver s : ALL) {
      double sigma = SecretNoise.builder().records(records, 1).uniformBudget(budget)
          .shiftMultiplier(Math.sqrt(2)).lpSolver(s).solve().sigma();
      assertThat(sigma).as("%s", s).isBetween(1.86, 1.87);
    }
  }

  @Test
  void sharedRecordsGetTheSameSigmaFromEverySolverOnTheFigure3Simulation() {
    // SecPE App. B.1 (N = 8000, m = 400, each secret held with probability 0.01, r/p = 10 at
    // p = 1e-3): PDLP alone ended inside the optimal face and needed sigma 1.586 against GLOP's
    // vertex at 1.166; the crossover to a vertex brings PDLP and the pure-Java first-order
    // method to GLOP's sigma
    List<int[]> records = simulate(8000, 400, 0.01, 42);
    SecretBudget budget = SecretBudget.ofRatio(1e-3, 10);
    double glop = SecretNoise.builder().records(records, 400).uniformBudget(budget).shiftMultiplier(1)
        .lpSolver(SecretNoise.LpSolver.GLOP).solve().sigma();
    assertThat(glop).isBetween(1.1, 1.25);
    for (SecretNoise.LpSolver s : new SecretNoise.LpSolver[] {SecretNoise.LpSolver.PDLP, SecretNoise.LpSolver.FIRST_ORDER}) {
      double sigma = SecretNoise.builder().records(records, 400).uniformBudget(budget).shiftMultiplier(1)
          .lpSolver(s).solve().sigma();
      assertThat(sigma).as("%s", s).isBetween(glop * (1 - 1e-3), glop * (1 + 1e-3));
    }
  }

  @Test
  void pdlpSolutionIsRepairedToExactFeasibility() {
    List<int[]> records = simulate(3000, 60, 0.05, 3);
    SecretBudget budget = new SecretBudget(0.01, 0.05);
    double eta = new org.hipparchus.distribution.continuous.NormalDistribution(0, 1).inverseCumulativeProbability(0.99)
        - new org.hipparchus.distribution.continuous.NormalDistribution(0, 1).inverseCumulativeProbability(0.95);
    SecretNoiseResult glop = SecretNoise.builder().records(records, 60).uniformBudget(budget)
        .shiftMultiplier(1).lpSolver(SecretNoise.LpSolver.GLOP).solve();
    SecretNoiseResult pdlp = SecretNoise.builder().records(records, 60).uniformBudget(budget)
        .shiftMultiplier(1).lpSolver(SecretNoise.LpSolver.PDLP).solve();
    double[] w = pdlp.weights();
    for (int j = 0; j < 60; j++) {
      double sum = 0;
      for (int i = 0; i < records.size(); i++) {
        for (int s : records.get(i)) {
          if (s == j) {
            sum += w[i];
          }
        }
      }
      assertThat(sum).isLessThanOrEqualTo(eta);
    }
    double objGlop = Arrays.stream(glop.weights()).sum();
    double objPdlp = Arrays.stream(w).sum();
    assertThat(objPdlp).isLessThanOrEqualTo(objGlop + 1e-6).isGreaterThan(0.99 * objGlop);
  }

  static List<int[]> simulate(int n, int m, double prob, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<int[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      List<Integer> s = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        if (rnd.nextDouble() < prob) {
          s.add(j);
        }
      }
      out.add(s.stream().mapToInt(Integer::intValue).toArray());
    }
    return out;
  }
}
