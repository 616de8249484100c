package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;

/**
 * Properties of the privacy math as a user would write them, against the public accounting API
 * only.
 */
class PrivacyMathPropertiesTest {

  @Property
  void secretBudgetRoundTripsThroughMu(
      @ForAll @Scale(8) @DoubleRange(min = 1e-6, max = 0.1) double p, @ForAll @DoubleRange(min = 1.01, max = 1000) double ratio) {
    Assume.that(p * ratio < 0.99);
    SecretBudget b = SecretBudget.ofRatio(p, ratio);
    GdpMu mu = Gdp.muFor(b);
    // Conservative side: the r this mu gives back is never below the requested r... and close to it.
    double r = Gdp.secretR(mu, p);
    assertThat(r).isCloseTo(b.r(), org.assertj.core.data.Percentage.withPercentage(1e-6));
  }

  @Property
  void moreMuMeansLessProtection(
      @ForAll @Scale(8) @DoubleRange(min = 1e-5, max = 0.01) double p,
      @ForAll @DoubleRange(min = 0.01, max = 5) double mu,
      @ForAll @Scale(4) @DoubleRange(min = 0.001, max = 1) double more) {
    assertThat(Gdp.secretR(new GdpMu(mu + more), p)).isGreaterThanOrEqualTo(Gdp.secretR(new GdpMu(mu), p));
  }

  @Property
  void augPeNoiseShrinksAsEpsilonGrowsAndGrowsWithRounds(
      @ForAll @DoubleRange(min = 0.1, max = 8) double eps, @ForAll @IntRange(min = 1, max = 50) int rounds) {
    double delta = 1e-6;
    double s = Calibration.privateEvolutionNoise(new DpBudget(eps, delta), rounds).sigma();
    assertThat(Calibration.privateEvolutionNoise(new DpBudget(eps * 1.5, delta), rounds).sigma()).isLessThan(s);
    assertThat(Calibration.privateEvolutionNoise(new DpBudget(eps, delta), rounds + 1).sigma()).isGreaterThan(s);
  }

  @Property
  void calibratedGaussianMeetsItsBudget(
      @ForAll @DoubleRange(min = 0.05, max = 8) double eps, @ForAll @Scale(12) @DoubleRange(min = 1e-9, max = 1e-3) double delta) {
    double sigma = Calibration.analyticGaussianSigma(new DpBudget(eps, delta), 1.0);
    // A Gaussian with multiplier sigma is (1/sigma)-GDP; its delta at eps must not exceed delta.
    assertThat(Gdp.deltaAt(new GdpMu(1 / sigma), eps)).isLessThanOrEqualTo(delta * (1 + 1e-9));
  }

  @Property(tries = 50)
  void theLedgerRefusesAReleasePastItsLimitBeforeAnyNoise(@ForAll @IntRange(min = 1, max = 20) int rounds) {
    DpBudget limit = new DpBudget(1.0, 1e-5);
    double sigma = Calibration.privateEvolutionNoise(limit, rounds).sigma();
    PrivacyLedger ledger = PrivacyLedger.withLimit(limit);
    for (int t = 0; t < rounds; t++) {
      ledger.charge(new Release("round-" + t, "Gaussian", "votes", 1, sigma, new PrivacyCost.Gaussian(sigma)));
    }
    assertThat(ledger.epsilon(1e-5)).isLessThanOrEqualTo(1.0 + 1e-9);
    assertThatThrownBy(
            () -> ledger.charge(new Release("one-too-many", "Gaussian", "votes", 1, sigma, new PrivacyCost.Gaussian(sigma))))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(ledger.releases()).hasSize(rounds);
  }
}
