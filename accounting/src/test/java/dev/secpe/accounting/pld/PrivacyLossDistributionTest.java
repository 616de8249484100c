package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Reference-value tests of the PLD accountant against closed forms and quadrature computed by
 * {@code src/test/python/pld_reference.py}. Each bound is pessimistic, so every check is
 * one-sided ("never below the truth") plus a stated tolerance above it.
 */
class PrivacyLossDistributionTest {

  @ParameterizedTest(name = "Gaussian mu={0} T={1}")
  @CsvSource({"0.5,1", "0.5,10", "0.5,100", "1,1", "1,10", "1,100", "2,1", "2,10"})
  void gaussianEpsilonMatchesClosedFormAndIsPessimistic(String mu, int t) {
    PrivacyLossDistribution pld =
        PrivacyLossDistribution.gaussian(1.0 / Double.parseDouble(mu), 1.0).selfCompose(t);
    for (String d : new String[] {"1e-5", "1e-8"}) {
      double exact = ReferenceValues.get("gaussian_eps mu=" + mu + " T=" + t + " delta=" + d);
      double eps = pld.epsilon(Double.parseDouble(d));
      assertThat(eps).as("eps(%s) never below the closed form", d).isGreaterThanOrEqualTo(exact);
      assertThat((eps - exact) / exact).as("relative error at delta=%s", d).isLessThan(2e-3);
    }
    for (String e : new String[] {"0", "0.5", "1", "2", "4"}) {
      double exact = ReferenceValues.get("gaussian_delta mu=" + mu + " T=" + t + " eps=" + e);
      double delta = pld.delta(Double.parseDouble(e));
      assertThat(delta).as("delta(%s) never below the closed form", e).isGreaterThanOrEqualTo(exact);
      assertThat(delta - exact).as("delta(%s) error", e).isLessThan(1e-3 * exact + 1e-9);
    }
  }

  @ParameterizedTest(name = "Laplace eps={0}")
  @CsvSource({"0.1", "0.5", "0.9"})
  void laplaceDeltaMatchesQuadrature(String e) {
    PrivacyLossDistribution pld = PrivacyLossDistribution.laplace(1.0, 1.0);
    double exact = ReferenceValues.get("laplace_delta b=1 sens=1 eps=" + e);
    double delta = pld.delta(Double.parseDouble(e));
    assertThat(delta).isGreaterThanOrEqualTo(exact);
    assertThat(delta - exact).isLessThan(1e-6);
  }

  @Test
  void laplaceIsPureDp() {
    PrivacyLossDistribution pld = PrivacyLossDistribution.laplace(2.0, 1.0);
    assertThat(pld.delta(0.5)).isLessThan(1e-12);
    assertThat(pld.epsilon(0.0)).isCloseTo(0.5, org.assertj.core.data.Offset.offset(2e-3));
  }

  @Test
  void mixtureReproducesDesignQuadratureValue() {
    // docs/math-decisions.md §3: shifts 0-3, sigma 0.7, delta(2) = 0.38143 by quadrature (dp_accounting's
    // privacy-buckets mixture gives 0.35496); here S ~ PoissonBinomial(0.1, 0.5, 0.9).
    PrivacyLossDistribution pld =
        PrivacyLossDistribution.secretMixture(0.7, new double[] {0.1, 0.5, 0.9}, 1.0);
    double delta = pld.delta(2.0);
    assertThat(delta).isGreaterThanOrEqualTo(0.381426).isLessThan(0.38150);
  }

  @ParameterizedTest(name = "mixture {0} T=1 eps={1}")
  @CsvSource({
    "A,-0.5", "A,0", "A,0.5", "A,1", "A,2",
    "B,-0.5", "B,0", "B,0.5", "B,1", "B,2",
    "C,-0.5", "C,0", "C,0.5", "C,1", "C,2"
  })
  void mixtureDeltaMatchesQuadrature(String name, String e) {
    double exact = ReferenceValues.get("mixture_delta case=" + name + " T=1 eps=" + e);
    double delta = mixture(name).delta(Double.parseDouble(e));
    assertThat(delta).isGreaterThanOrEqualTo(exact - 1e-12);
    assertThat(delta - exact).isLessThan(1e-6);
  }

  @ParameterizedTest(name = "mixture {0} T=1 alpha={1}")
  @CsvSource({
    "A,0.001", "A,0.01", "A,0.1", "A,0.5",
    "B,0.001", "B,0.01", "B,0.1", "B,0.5",
    "C,0.001", "C,0.01", "C,0.1", "C,0.5"
  })
  void mixtureBlowUpMatchesNeymanPearson(String name, String a) {
    double exact = ReferenceValues.get("mixture_blowup case=" + name + " T=1 alpha=" + a);
    double b = mixture(name).blowUp(Double.parseDouble(a));
    assertThat(b).isGreaterThanOrEqualTo(exact - 1e-12);
    assertThat(b - exact).isLessThan(1e-4 * exact);
  }

  @ParameterizedTest(name = "mixture {0} T=2 eps={1}")
  @CsvSource({"B,0", "B,1", "B,2", "C,0", "C,1", "C,2"})
  void twoFoldMixtureMatchesQuadrature(String name, String e) {
    double exact = ReferenceValues.get("mixture_delta case=" + name + " T=2 eps=" + e);
    double delta = mixture(name).selfCompose(2).delta(Double.parseDouble(e));
    assertThat(delta).isGreaterThanOrEqualTo(exact - 1e-12);
    assertThat(delta - exact).isLessThan(1e-5);
  }

  @ParameterizedTest(name = "subsampled {0} eps={1}")
  @CsvSource({
    "remove,0.01", "remove,0.05", "remove,0.1", "add,0.01", "add,0.05", "add,0.1"
  })
  void subsampledGaussianIsTheWorseDirection(String dir, String e) {
    double exact =
        ReferenceValues.get("subsampled_delta sigma=1 q=0.05 dir=" + dir + " eps=" + e);
    double delta = PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 0.05)
        .delta(Double.parseDouble(e));
    assertThat(delta).as("at least the %s direction", dir).isGreaterThanOrEqualTo(exact - 1e-12);
  }

  @Test
  void subsampledGaussianMatchesTheWorseDirection() {
    for (String e : new String[] {"0.01", "0.05", "0.1"}) {
      double worse = Math.max(
          ReferenceValues.get("subsampled_delta sigma=1 q=0.05 dir=remove eps=" + e),
          ReferenceValues.get("subsampled_delta sigma=1 q=0.05 dir=add eps=" + e));
      double delta = PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 0.05)
          .delta(Double.parseDouble(e));
      assertThat(delta - worse).isBetween(-1e-12, 1e-5);
    }
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> PrivacyLossDistribution.gaussian(Double.NaN, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sigma=NaN");
    assertThatThrownBy(() -> PrivacyLossDistribution.poissonSubsampledGaussian(1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("samplingRate=0");
    assertThatThrownBy(() -> PrivacyLossDistribution.gaussian(1, 1).epsilon(-0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delta=-0.1");
    PrivacyLossDistribution fine = PrivacyLossDistribution.gaussian(1, 1, PldOptions.withInterval(1e-2));
    assertThatThrownBy(() -> fine.compose(PrivacyLossDistribution.gaussian(1, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intervals differ");
  }

  static PrivacyLossDistribution mixture(String name) {
    ReferenceValues.MixtureCase c = ReferenceValues.mixtureCase(name);
    return PrivacyLossDistribution.secretMixture(c.sigma(), c.shiftProbs(), c.shiftScale());
  }
}
