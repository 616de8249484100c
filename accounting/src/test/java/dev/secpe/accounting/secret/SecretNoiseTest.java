package dev.secpe.accounting.secret;

import dev.secpe.accounting.RefNormal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.pld.ReferenceValues;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** SecPE Algorithm 1: the LP, rho, and the per-secret calibration. */
class SecretNoiseTest {

  /** The paper's B.1 simulation: each record holds each secret with probability {@code prob}. */
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

  @Property(tries = 25)
  void lpSolutionIsFeasibleAndSecretFreeRecordsAreKept(
      @ForAll @IntRange(min = 1, max = 60) int n,
      @ForAll @IntRange(min = 1, max = 8) int m,
      @ForAll @DoubleRange(min = 0.05, max = 0.6) double prob,
      @ForAll long seed) {
    List<int[]> records = simulate(n, m, prob, seed);
    SecretBudget budget = new SecretBudget(0.01, 0.05);
    SecretNoiseResult res = SecretNoise.builder().records(records, m).uniformBudget(budget)
        .shiftMultiplier(Math.sqrt(2)).solve();
    // 50-digit mpmath quantiles: Hipparchus' are 2 ulps off here, and the LP's constraint is the
    // true eta to within one
    double eta = ReferenceValues.get("upper_quantile p=0.01") - ReferenceValues.get("upper_quantile p=0.05");
    double[] w = res.weights();
    double[] rho = res.rho();
    for (int j = 0; j < m; j++) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        for (int s : records.get(i)) {
          if (s == j) {
            sum += w[i];
          }
        }
      }
      assertThat(sum).as("constraint of secret %d", j).isLessThanOrEqualTo(eta);
    }
    for (int i = 0; i < n; i++) {
      assertThat(w[i]).isBetween(0.0, 1.0);
      assertThat(rho[i]).isBetween(0.0, 1.0);
      if (records.get(i).length == 0) {
        assertThat(w[i]).isEqualTo(1.0);
        assertThat(rho[i]).isEqualTo(1.0);
      }
    }
    // every secret meets its budget at the returned sigma
    for (int j = 0; j < m; j++) {
      double[] probs = probsOf(records, rho, j);
      if (res.sigma() > 0) {
        assertThat(MixtureBlowUp.blowUp(res.sigma(), probs, Math.sqrt(2), 1, 0.01))
            .isLessThanOrEqualTo(0.05);
      }
      assertThat(res.sigmaPerSecret()[j]).isLessThanOrEqualTo(res.sigma());
    }
  }

  @Test
  void lpMaximisesTheTotalWeight() {
    // two records share secret 0 with capacity eta ~ 1.0: the LP must use all of it
    SecretBudget budget = new SecretBudget(0.1, 0.1 * 3.5);
    double eta = RefNormal.upperQuantile(0.1) - RefNormal.upperQuantile(0.35);
    SecretNoiseResult res = SecretNoise.builder()
        .records(List.of(new int[] {0}, new int[] {0}, new int[] {}), 1)
        .uniformBudget(budget).shiftMultiplier(1).solve();
    double[] w = res.weights();
    assertThat(w[0] + w[1]).isCloseTo(eta, org.assertj.core.data.Offset.offset(1e-7));
    assertThat(w[2]).isEqualTo(1.0);
    assertThat(res.expectedSampled()).isCloseTo(1 + eta, org.assertj.core.data.Offset.offset(1e-7));
  }

  @Test
  void secretProtectionNeedsLessNoiseThanGdpAsInFigure3() {
    // SecPE App. B.1 / Fig. 3(a): N = 8000, m = 400, Bernoulli(0.01), r/p = 10; the GDP sigma
    // for the same (p, r) by eq. (4) with sensitivity 1 is 1/mu. The paper reports
    // sigma_GDP / sigma_secret > 1 but does not state p. With docs/math-decisions.md §3's rho = w / max w and
    // c = 1 (the paper's count-only calibration) we measured ratio 1.12 at p = 1e-3 and 1.21 at
    // p = 1e-4, but 0.79 at p = 1e-2 (see the notes): the claim holds for small priors only.
    List<int[]> records = simulate(8000, 400, 0.01, 42);
    for (double p : new double[] {1e-3, 1e-4}) {
      SecretBudget budget = SecretBudget.ofRatio(p, 10);
      SecretNoiseResult res = SecretNoise.builder().records(records, 400).uniformBudget(budget)
          .shiftMultiplier(1.0).solve();
      double mu = RefNormal.upperQuantile(p) - RefNormal.upperQuantile(10 * p);
      double sigmaGdp = 1 / mu;
      assertThat(sigmaGdp / res.sigma()).as("p=%s", p).isGreaterThan(1.0);
    }
  }

  @Test
  void identicalRhoMultisetsShareOneSolve() {
    SecretNoiseResult res = SecretNoise.builder()
        .records(List.of(new int[] {0, 1}, new int[] {0, 1}, new int[] {2}), 3)
        .uniformBudget(new SecretBudget(0.01, 0.1)).shiftMultiplier(1).solve();
    assertThat(res.sigmaPerSecret()[0]).isEqualTo(res.sigmaPerSecret()[1]);
  }

  @Test
  void singleGaussianApproximationIsOptIn() {
    List<int[]> records = simulate(300, 20, 0.05, 7);
    SecretBudget budget = new SecretBudget(0.01, 0.1);
    SecretNoiseResult exact = SecretNoise.builder().records(records, 20).uniformBudget(budget)
        .shiftMultiplier(1).solve();
    SecretNoiseResult approx = SecretNoise.builder().records(records, 20).uniformBudget(budget)
        .shiftMultiplier(1).blowUpMethod(SecretNoise.BlowUpMethod.SINGLE_GAUSSIAN_APPROXIMATION)
        .solve();
    assertThat(exact.sigma()).isPositive();
    assertThat(approx.sigma()).isPositive().isNotEqualTo(exact.sigma());
  }

  @Test
  void rejectsBadInputNamingTheValue() {
    assertThatThrownBy(() -> SecretNoise.builder().records(List.of(new int[] {3}), 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secret=3");
    assertThatThrownBy(() -> SecretNoise.builder().rounds(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rounds=0");
    assertThatThrownBy(() -> SecretNoise.builder().shiftMultiplier(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shiftMultiplier=NaN");
    assertThatThrownBy(() -> SecretNoise.builder().uniformBudget(new SecretBudget(0.1, 0.2))
            .budgets(List.of()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("uniformBudget");
    assertThatThrownBy(() -> SecretNoise.builder().records(List.of(new int[] {0}), 1)
            .uniformBudget(new SecretBudget(0.1, 0.2)).solve())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("shiftMultiplier");
  }

  static double[] probsOf(List<int[]> records, double[] rho, int j) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      for (int s : records.get(i)) {
        if (s == j) {
          out.add(rho[i]);
        }
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }
  @Test
  void theSolversChoiceAmongEqualOptimaNoLongerDecidesSigma() {
    // Three records holding one secret: any split of eta over them is optimal. GLOP returned a
    // vertex (sigma 1.867), PDLP spread the weight (2.559, 37% more noise for nothing). The
    // OR-Tools solvers are checked the same way in secpe-accounting-ortools.
    List<int[]> records = new ArrayList<>(List.of(new int[] {0}, new int[] {0}, new int[] {0}));
    for (int i = 0; i < 100; i++) {
      records.add(new int[0]);
    }
    SecretBudget budget = new SecretBudget(1e-4, 1e-3);
    double[] sigma = new double[3];
    int k = 0;
    for (SecretNoise.LpSolver solver : new SecretNoise.LpSolver[] {
        SecretNoise.LpSolver.AUTO, SecretNoise.LpSolver.SIMPLEX, SecretNoise.LpSolver.FIRST_ORDER}) {
      sigma[k++] = SecretNoise.builder().records(records, 1).uniformBudget(budget)
          .shiftMultiplier(Math.sqrt(2)).lpSolver(solver).solve().sigma();
    }
    assertThat(sigma[0]).isBetween(1.86, 1.87);
    assertThat(sigma[1]).isBetween(sigma[0] * (1 - 1e-3), sigma[0] * (1 + 1e-3));
    assertThat(sigma[2]).isBetween(sigma[0] * (1 - 1e-3), sigma[0] * (1 + 1e-3));
  }

  /** Secrets held by their own records only: every solver gives the same sigma. */
  @Property(tries = 15)
  void everySolverGivesTheSameSigmaWhenRecordsHoldOneSecret(
      @ForAll @IntRange(min = 1, max = 8) int secrets, @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<int[]> records = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      records.add(rnd.nextInt(3) == 0 ? new int[0] : new int[] {rnd.nextInt(secrets)});
    }
    SecretBudget budget = new SecretBudget(1e-3, 1e-2);
    double simplex = SecretNoise.builder().records(records, secrets).uniformBudget(budget)
        .shiftMultiplier(1).lpSolver(SecretNoise.LpSolver.SIMPLEX).solve().sigma();
    double firstOrder = SecretNoise.builder().records(records, secrets).uniformBudget(budget)
        .shiftMultiplier(1).lpSolver(SecretNoise.LpSolver.FIRST_ORDER).solve().sigma();
    assertThat(firstOrder).isBetween(simplex * (1 - 1e-3), simplex * (1 + 1e-3));
  }
}
