package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.SecretBudget;
import org.junit.jupiter.api.Test;

/**
 * {@link PrivacyCalculator} gives the static functions' answers (it is a front, not a second
 * implementation), checked here against them and against closed forms.
 */
class PrivacyCalculatorTest {

  @Test
  void gaussianSigmaIsTheCalibrationsAndTheClassicClosedForm() {
    assertThat(PrivacyCalculator.gaussianSigma().epsilon(1.0).delta(1e-5).sigma())
        .isEqualTo(Calibration.analyticGaussianSigma(new DpBudget(1.0, 1e-5), 1.0));
    assertThat(PrivacyCalculator.gaussianSigma().epsilon(0.5).delta(1e-5).sensitivity(2.0).classic().sigma())
        .isCloseTo(2.0 * Math.sqrt(2 * Math.log(1.25 / 1e-5)) / 0.5, within(1e-9));
    assertThatThrownBy(() -> PrivacyCalculator.gaussianSigma().epsilon(1.0).sigma())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("delta(...)");
    assertThatThrownBy(() -> PrivacyCalculator.gaussianSigma().epsilon(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epsilon");
  }

  @Test
  void gaussianReleasesComposeExactlyInMuAndThroughThePld() {
    PrivacyCalculator.Releases r = PrivacyCalculator.releases().gaussian(5.0, 10).gaussian(2.0, 2.0, 3);
    // mu = sqrt(10 / 25 + 3 * (2/2)^2) = sqrt(3.4)
    assertThat(r.mu().mu()).isCloseTo(Math.sqrt(3.4), within(1e-9)); // rounded up
    assertThat(r.secretR(1e-4)).isEqualTo(Gdp.secretR(r.mu(), 1e-4));
    double eps = r.epsilon(1e-5);
    assertThat(eps).isEqualTo(PrivacyLossDistribution.gaussian(5.0, 1.0).selfCompose(10)
        .compose(PrivacyLossDistribution.gaussian(2.0, 2.0).selfCompose(3)).epsilon(1e-5));
    // The PLD's epsilon is an upper bound of mu-GDP's exact one, within its discretisation.
    assertThat(eps).isGreaterThanOrEqualTo(Gdp.epsilonAt(r.mu(), 1e-5) * (1 - 1e-6))
        .isCloseTo(Gdp.epsilonAt(r.mu(), 1e-5), within(0.01 * eps));
    assertThat(r).hasToString("Releases{10 x gaussian(sigma=5.0, sensitivity=1.0), 3 x gaussian(sigma=2.0, sensitivity=2.0)}");
  }

  @Test
  void laplaceReleasesAddUpAndAreNotMuGdp() {
    // Pure DP: k Laplace releases of scale b at sensitivity 1 give at most k / b at delta 0+.
    double eps = PrivacyCalculator.releases().laplace(10.0, 3).epsilon(1e-12);
    assertThat(eps).isLessThanOrEqualTo(0.3 * (1 + 1e-3)).isGreaterThan(0.2);
    assertThatThrownBy(() -> PrivacyCalculator.releases().laplace(10.0, 1).mu())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("epsilon(delta)");
    assertThatThrownBy(() -> PrivacyCalculator.releases().epsilon(1e-5))
        .isInstanceOf(IllegalStateException.class);
    assertThat(PrivacyCalculator.muFor(new SecretBudget(1e-4, 1e-3))).isEqualTo(Gdp.muFor(new SecretBudget(1e-4, 1e-3)));
  }
}
