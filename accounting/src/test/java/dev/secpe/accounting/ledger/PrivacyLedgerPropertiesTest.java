package dev.secpe.accounting.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.Sensitivity;
import dev.secpe.accounting.pld.RdpAccountant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;

/**
 * Properties a user of the ledger writes over random plans (issue 33: 200 tries of the first took 4
 * minutes, nearly all of it in {@link PrivacyLedger#epsilon} with the default accountant; a
 * Gaussian ledger now answers from the exact mu-GDP conversion, and the 300 tries here take well
 * under a second). The reference values are independent of the PLD accountant: the mu-GDP
 * conversion of the mu the ledger reports, and the RDP accountant.
 */
class PrivacyLedgerPropertiesTest {

  /** Rounds of Gaussian releases: epsilon is the exact conversion of the composed mu, never more. */
  @Property(tries = 300)
  void aGaussianLedgerReportsTheConversionOfItsMu(
      @ForAll @IntRange(min = 1, max = 200) int rounds,
      @ForAll @DoubleRange(min = 0.3, max = 50) @Scale(6) double sigma,
      @ForAll @DoubleRange(min = 0.1, max = 5) @Scale(6) double sensitivity,
      @ForAll @DoubleRange(min = -12, max = -1) @Scale(6) double log10Delta) {
    double delta = Math.pow(10, log10Delta);
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    for (int t = 0; t < rounds; t++) {
      ledger.charge(Release.gaussian("round-" + t, "one record", sigma * (1 + t % 3), Sensitivity.l2(sensitivity)));
    }
    double viaGdp = Gdp.epsilonAt(ledger.gdp().orElseThrow(), delta);
    assertThat(ledger.epsilon(delta)).isLessThanOrEqualTo(viaGdp);
    assertThat(ledger.delta(viaGdp)).isLessThanOrEqualTo(delta * (1 + 1e-10));
  }

  /**
   * Rounds of DP-SGD steps (a subsampled Gaussian charged once a round): the PLD epsilon is at most
   * both looser accountants' (mu-GDP without amplification, and RDP), and charging the rounds one
   * by one gives what one release of all their steps gives (they are one mechanism composed).
   */
  @Property(tries = 5)
  void subsampledRoundsAreAtMostTheLooserAccountants(
      @ForAll @IntRange(min = 1, max = 5) int rounds,
      @ForAll @IntRange(min = 1, max = 40) int stepsPerRound,
      @ForAll @DoubleRange(min = 0.8, max = 5) @Scale(4) double z,
      @ForAll @DoubleRange(min = 0.01, max = 0.2) @Scale(4) double q,
      @ForAll @DoubleRange(min = -10, max = -3) @Scale(4) double log10Delta) {
    double delta = Math.pow(10, log10Delta);
    PrivacyLedger perRound = PrivacyLedger.unlimited();
    for (int r = 0; r < rounds; r++) {
      perRound.charge(new Release("sgd-" + r, "Poisson-subsampled Gaussian (DP-SGD)",
          "one record", 1.0, z, new PrivacyCost.SubsampledGaussian(z, q, stepsPerRound)));
    }
    PrivacyLedger once = PrivacyLedger.unlimited();
    once.charge(new Release("sgd", "Poisson-subsampled Gaussian (DP-SGD)", "one record", 1.0, z,
        new PrivacyCost.SubsampledGaussian(z, q, rounds * stepsPerRound)));
    double eps = perRound.epsilon(delta);
    assertThat(eps).isEqualTo(once.epsilon(delta));
    assertThat(eps).isLessThanOrEqualTo(Gdp.epsilonAt(perRound.gdp().orElseThrow(), delta));
    assertThat(eps).isLessThanOrEqualTo(RdpAccountant.epsilon(q, z, rounds * stepsPerRound, delta));
  }

  /**
   * A SecPE release that shifts no secret (a label group none of whose records holds one, or whose
   * holders have rho = 0) adds nothing: charged before, between or after a secret's releases, the
   * secret's r at its prior, and the record-level mu, are those of the ledger without it.
   */
  @Property(tries = 100)
  void aReleaseThatShiftsNoSecretChangesNothing(
      @ForAll @IntRange(min = 0, max = 5) int before,
      @ForAll @DoubleRange(min = 0.5, max = 20) @Scale(4) double sigma,
      @ForAll @DoubleRange(min = 0.05, max = 1) @Scale(4) double rho,
      @ForAll @DoubleRange(min = -6, max = -2) @Scale(4) double log10Prior) {
    double p = Math.pow(10, log10Prior);
    PrivacyLedger with = PrivacyLedger.unlimited();
    PrivacyLedger without = PrivacyLedger.unlimited();
    for (int t = 0; t < 5; t++) {
      if (t == before) {
        with.charge(new Release("empty", "SecPE", "a group without secrets", Math.sqrt(2), sigma,
            new PrivacyCost.SecretMixture(sigma, Math.sqrt(2), new double[][] {{}, {0.0}})));
      }
      Release r = new Release("g" + t, "SecPE", "counts and centres", Math.sqrt(2), sigma,
          new PrivacyCost.SecretMixture(sigma, Math.sqrt(2), new double[][] {{rho}, {rho, rho}}));
      with.charge(r);
      without.charge(r);
    }
    if (before == 5) {
      with.charge(new Release("empty", "SecPE", "a group without secrets", Math.sqrt(2), sigma,
          new PrivacyCost.SecretMixture(sigma, Math.sqrt(2), new double[][] {{}, {0.0}})));
    }
    assertThat(with.guarantee(1e-6, p).r()).containsExactly(without.guarantee(1e-6, p).r());
    assertThat(with.gdp().orElseThrow().mu()).isEqualTo(without.gdp().orElseThrow().mu());
  }
}
