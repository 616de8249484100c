package dev.secpe.accounting.secret;

import dev.secpe.accounting.RefNormal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.pld.ReferenceValues;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The exact one-release blow-up, its PLD counterpart for T releases, and the sigma inverse. */
class MixtureBlowUpTest {

  /** The blow-up of {@code pld_reference.py}'s mixture case {@code name} over t releases. */
  static double blowUp(String name, int t, double alpha) {
    ReferenceValues.MixtureCase c = ReferenceValues.mixtureCase(name);
    return MixtureBlowUp.blowUp(c.sigma(), c.shiftProbs(), c.shiftScale(), t, alpha);
  }

  @ParameterizedTest(name = "case {0} alpha={1}")
  @CsvSource({
    "A,0.001", "A,0.01", "A,0.1", "A,0.5",
    "B,0.001", "B,0.01", "B,0.1", "B,0.5",
    "C,0.001", "C,0.01", "C,0.1", "C,0.5"
  })
  void oneReleaseMatchesMpmath(String name, String alpha) {
    double exact = ReferenceValues.get("mixture_blowup case=" + name + " T=1 alpha=" + alpha);
    double b = blowUp(name, 1, Double.parseDouble(alpha));
    assertThat(b).isGreaterThanOrEqualTo(exact);
    assertThat((b - exact) / exact).isLessThan(1e-10);
  }

  @ParameterizedTest(name = "case {0} T=2 alpha={1}")
  @CsvSource({"B,0.01", "B,0.1", "C,0.01", "C,0.1"})
  void twoReleasesThroughThePldMatchQuadrature(String name, String alpha) {
    // reference: inf_eps alpha e^eps + delta_2(eps), delta_2 by quadrature (float64, ~1e-9)
    double ref = ReferenceValues.get("mixture_blowup case=" + name + " T=2 alpha=" + alpha);
    double b = blowUp(name, 2, Double.parseDouble(alpha));
    assertThat(b).isGreaterThanOrEqualTo(ref - 1e-8);
    assertThat(b - ref).isLessThan(1e-5);
  }

  @Test
  void singleGaussianShiftReducesToTheGdpBlowUp() {
    // S = 1 surely: B(alpha) = Phi(PhiInv(alpha) + c / sigma) (docs/math-decisions.md §2)
    double b = MixtureBlowUp.blowUp(2.0, new double[] {1.0}, 1.0, 1, 0.05);
    double exact = RefNormal.cdf(-RefNormal.upperQuantile(0.05) + 0.5);
    assertThat(b).isGreaterThanOrEqualTo(exact).isCloseTo(exact, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void leastSigmaForAPureGaussianMatchesEquationFour() {
    SecretBudget budget = new SecretBudget(0.01, 0.1);
    double mu = RefNormal.upperQuantile(0.01) - RefNormal.upperQuantile(0.1);
    double sigma = MixtureBlowUp.leastSigma(new double[] {1.0}, 1.0, 1, budget);
    assertThat(sigma).isGreaterThanOrEqualTo(1 / mu * (1 - 1e-12));
    assertThat(sigma / (1 / mu) - 1).isLessThan(1e-8);
  }

  @Test
  void tinyPriorsStayFiniteAndOnTheSafeSide() {
    // alpha = 1e-20: z = 9.2623400897984076 (mpmath, quantile_reference.csv); a shift of 1 at
    // sigma 0.5 gives Phibar(z - 2) > alpha. Hipparchus' erfcInv alone returned infinity here.
    double b = MixtureBlowUp.blowUp(0.5, new double[] {1.0}, 1.0, 1, 1e-20);
    assertThat(b).isGreaterThan(1e-20).isCloseTo(RefNormal.upper(9.2623400897984076 - 2),
        org.assertj.core.data.Percentage.withPercentage(1e-8));
    double sigma = MixtureBlowUp.leastSigma(new double[] {1.0}, 1.0, 1, new SecretBudget(1e-20, 1e-19));
    assertThat(sigma).isFinite().isPositive();
    assertThat(MixtureBlowUp.blowUp(sigma, new double[] {1.0}, 1.0, 1, 1e-20)).isLessThanOrEqualTo(1e-19);
  }

  @Test
  void noShiftNeedsNoNoise() {
    assertThat(MixtureBlowUp.leastSigma(new double[] {0, 0}, 1, 1, new SecretBudget(0.01, 0.1)))
        .isZero();
  }

  @Property(tries = 60)
  void blowUpIsInRangeAndMonotone(
      @ForAll @Size(min = 1, max = 6) java.util.List<@DoubleRange(min = 0, max = 1) Double> probs,
      @ForAll @DoubleRange(min = 0.2, max = 10) double sigma,
      @ForAll @DoubleRange(min = 1e-6, max = 0.9) @net.jqwik.api.constraints.Scale(8) double alpha,
      @ForAll @DoubleRange(min = 1.01, max = 2) double factor) {
    double[] rho = probs.stream().mapToDouble(Double::doubleValue).toArray();
    double b = MixtureBlowUp.blowUp(sigma, rho, 1.0, 1, alpha);
    assertThat(b).isBetween(alpha, 1.0);
    double alpha2 = Math.min(1.0, alpha * factor);
    assertThat(MixtureBlowUp.blowUp(sigma, rho, 1.0, 1, alpha2)).as("monotone in alpha")
        .isGreaterThanOrEqualTo(b);
    assertThat(MixtureBlowUp.blowUp(sigma * factor, rho, 1.0, 1, alpha)).as("decreasing in sigma")
        .isLessThanOrEqualTo(b);
  }

  @Property(tries = 60)
  void leastSigmaSatisfiesTheBoundAndIsTight(
      @ForAll @Size(min = 1, max = 8) java.util.List<@DoubleRange(min = 0.01, max = 1) Double> probs,
      @ForAll @DoubleRange(min = -4, max = -1) double log10p,
      @ForAll @DoubleRange(min = 1.5, max = 50) double ratio) {
    double[] rho = probs.stream().mapToDouble(Double::doubleValue).toArray();
    double p = Math.pow(10, log10p);
    double r = Math.min(0.99, p * ratio);
    SecretBudget budget = new SecretBudget(p, r);
    double c = Math.sqrt(2);
    double sigma = MixtureBlowUp.leastSigma(rho, c, 1, budget);
    if (sigma == 0) {
      // no noise needed: even a noiseless release reveals a shift with probability <= r
      double pZero = 1;
      for (double x : rho) pZero *= 1 - x;
      assertThat(1 - pZero * (1 - p)).isLessThanOrEqualTo(r);
      return;
    }
    assertThat(MixtureBlowUp.blowUp(sigma, rho, c, 1, p)).isLessThanOrEqualTo(r);
    double smaller = sigma * (1 - 10 * MixtureBlowUp.EXACT_SIGMA_TOLERANCE);
    assertThat(MixtureBlowUp.blowUp(smaller, rho, c, 1, p)).isGreaterThan(r);
  }

  @Property(tries = 25)
  void pldBlowUpOfOneReleaseIsNeverBelowTheExactOne(
      @ForAll @Size(min = 1, max = 6) java.util.List<@DoubleRange(min = 0, max = 1) Double> probs,
      @ForAll @DoubleRange(min = 0.3, max = 5) double sigma,
      @ForAll @DoubleRange(min = 1e-5, max = 0.5) @net.jqwik.api.constraints.Scale(7) double alpha) {
    double[] rho = probs.stream().mapToDouble(Double::doubleValue).toArray();
    double exact = MixtureBlowUp.blowUp(sigma, rho, 1.0, 1, alpha);
    double viaPld = dev.secpe.accounting.pld.PrivacyLossDistribution
        .secretMixture(sigma, rho, 1.0).blowUp(alpha);
    assertThat(viaPld).isGreaterThanOrEqualTo(exact * (1 - 1e-12));
    assertThat(viaPld - exact).isLessThan(1e-4);
  }

  @Property(tries = 8)
  void severalReleasesThroughThePldSatisfyTheBound(
      @ForAll @Size(min = 1, max = 4) java.util.List<@DoubleRange(min = 0.05, max = 1) Double> probs,
      @ForAll @IntRange(min = 2, max = 4) int rounds) {
    double[] rho = probs.stream().mapToDouble(Double::doubleValue).toArray();
    SecretBudget budget = new SecretBudget(0.01, 0.1);
    dev.secpe.accounting.pld.PldOptions coarse = dev.secpe.accounting.pld.PldOptions.withInterval(1e-2);
    double sigma = MixtureBlowUp.leastSigma(rho, 1.0, rounds, budget, coarse);
    assertThat(MixtureBlowUp.blowUp(sigma, rho, 1.0, rounds, 0.01, coarse)).isLessThanOrEqualTo(0.1);
    double smaller = sigma * (1 - 10 * MixtureBlowUp.PLD_SIGMA_TOLERANCE);
    assertThat(MixtureBlowUp.blowUp(smaller, rho, 1.0, rounds, 0.01, coarse)).isGreaterThan(0.1);
    // more releases need at least as much noise as one
    assertThat(sigma).isGreaterThanOrEqualTo(MixtureBlowUp.leastSigma(rho, 1.0, 1, budget));
  }
}
