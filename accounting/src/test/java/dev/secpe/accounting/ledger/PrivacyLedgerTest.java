package dev.secpe.accounting.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.Sensitivity;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class PrivacyLedgerTest {

  private static Release gauss(String id, double z) {
    return Release.gaussian(id, "votes", z, Sensitivity.l2(1.0));
  }

  @Example
  void gaussianReleasesComposeExactlyInGdp() {
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    ledger.charge(gauss("a", 2.0));
    ledger.charge(gauss("b", 4.0));
    ledger.charge(Release.gaussian("c", "centres", 8.0, Sensitivity.l2(2.0))); // z = 4
    double mu = Math.sqrt(1 / 4.0 + 1 / 16.0 + 1 / 16.0);
    assertThat(ledger.gdpStatus()).isEqualTo(GdpStatus.EXACT);
    assertThat(ledger.gdp().orElseThrow().mu()).isBetween(mu, mu * (1 + 1e-9));
    PrivacyGuarantee g = ledger.guarantee(1e-5, 1e-3);
    assertThat(g.releases()).isEqualTo(3);
    assertThat(g.epsilon()).isBetween(Gdp.epsilonAt(new GdpMu(mu), 1e-5), Gdp.epsilonAt(new GdpMu(mu), 1e-5) * (1 + 1e-8));
    assertThat(g.r()).hasSize(1);
    assertThat(g.r()[0]).isBetween(Gdp.secretR(new GdpMu(mu), 1e-3), Gdp.secretR(new GdpMu(mu), 1e-3) * (1 + 1e-8));
    assertThat(ledger.releases()).extracting(Release::id).containsExactly("a", "b", "c");
    assertThatThrownBy(() -> ledger.releases().add(gauss("d", 1))).isInstanceOf(UnsupportedOperationException.class);
  }

  private static PrivacyLedger gdpLedger() {
    return PrivacyLedger.unlimited().accountant(PrivacyLedger.Accountant.GDP);
  }

  @Example
  void pldIsTheDefaultAndTighterForLaplace() {
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    assertThat(ledger.accountant()).isEqualTo(PrivacyLedger.Accountant.PLD);
    ledger.charge(gauss("votes", 3.0));
    ledger.charge(Release.laplace("length-hist", "length histogram", 4.0, Sensitivity.l1(1.0)));
    double basic = Gdp.epsilonAt(new GdpMu(1 / 3.0), 1e-6) + 0.25;
    assertThat(ledger.epsilon(1e-6)).isLessThan(basic).isGreaterThan(0.25);
  }

  @Example
  void pureDpMakesTheLedgerNotGdpAndAddsEpsilon() {
    PrivacyLedger ledger = gdpLedger();
    ledger.charge(gauss("votes", 3.0));
    ledger.charge(Release.laplace("length-hist", "length histogram", 4.0, Sensitivity.l1(1.0))); // eps 0.25
    ledger.charge(new Release("svt", "AboveThreshold", "max length", 1, 8, new PrivacyCost.PureDp(0.5)));
    assertThat(ledger.gdpStatus()).isEqualTo(GdpStatus.NOT_GDP);
    assertThat(ledger.gdp()).isEmpty();
    double expected = Gdp.epsilonAt(new GdpMu(1 / 3.0), 1e-6) + 0.75;
    assertThat(ledger.epsilon(1e-6)).isBetween(expected, expected * (1 + 1e-8));
    PrivacyGuarantee g = ledger.guarantee(1e-6, 0.01);
    assertThat(g.r()[0]).isGreaterThan(0.01).isLessThan(1);
    assertThat(g.secretMethod()).contains("Theorem 3").contains("blow-up");
    // Theorem 3 bound is one of the candidates, so r is at most that; and r is at least the
    // tight GDP-part bound (more releases never help)
    double theorem3 = Gdp.secretR(new GdpMu(1 / 3.0), 0.01) + Gdp.blowUp(new DpBudget(0.75, 0), 0.01);
    assertThat(g.r()[0]).isGreaterThan(Gdp.secretR(new GdpMu(1 / 3.0), 0.01));
    assertThat(g.r()[0]).isLessThanOrEqualTo(theorem3 * (1 + 1e-9));
  }

  @Example
  void dpLimitRefusesBeforeRecordingAndNoNoiseIsDrawn() {
    DpBudget limit = new DpBudget(1.0, 1e-5);
    PrivacyLedger ledger = PrivacyLedger.withLimit(limit);
    // each round: sigma for T=4 rounds of Aug-PE; the fifth round must be refused
    double sigma = dev.secpe.accounting.Calibration.privateEvolutionNoise(limit, 4).sigma();
    NoiseSource noise = NoiseSources.reproducibleForTests(3);
    int drawn = 0;
    for (int t = 0; t < 4; t++) {
      ledger.charge(gauss("round-" + t, sigma));
      noise.gaussian(sigma);
      drawn++;
    }
    assertThat(ledger.epsilon(1e-5)).isLessThanOrEqualTo(1.0);
    int before = drawn;
    assertThatThrownBy(
            () -> {
              ledger.charge(gauss("round-4", sigma));
              noise.gaussian(sigma); // never reached
            })
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("round-4")
        .hasMessageContaining("before any noise");
    assertThat(drawn).isEqualTo(before);
    assertThat(ledger.contains("round-4")).isFalse();
    assertThat(ledger.releases()).hasSize(4);
  }

  @Example
  void duplicateIdsAreRejected() {
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    ledger.charge(gauss("x", 1));
    assertThatThrownBy(() -> ledger.charge(gauss("x", 5)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("x");
    assertThat(ledger.releases()).hasSize(1);
  }

  @Example
  void gdpLimitRefusesPureDpAndExcess() {
    PrivacyLedger ledger = PrivacyLedger.withLimit(new GdpMu(1.0));
    ledger.charge(gauss("a", 1.5));
    assertThatThrownBy(() -> ledger.charge(Release.laplace("l", "hist", 10, Sensitivity.l1(1))))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("not mu-GDP");
    assertThatThrownBy(() -> ledger.charge(gauss("b", 1.0)))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("mu=");
    ledger.charge(gauss("c", 1.5)); // sqrt(2)/1.5 = 0.943 <= 1
    assertThat(ledger.releases()).hasSize(2);
  }

  @Example
  void secretLimitUsesEquation4() {
    SecretBudget budget = new SecretBudget(1e-3, 1e-2);
    PrivacyLedger ledger = PrivacyLedger.withLimit(budget, 3);
    double muMax = Gdp.muFor(budget).mu();
    double z = 1.01 * Math.sqrt(2) / muMax; // two releases fit, a third does not
    ledger.charge(gauss("a", z));
    ledger.charge(gauss("b", z));
    assertThatThrownBy(() -> ledger.charge(gauss("c", z))).isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("p=0.001");
    PrivacyGuarantee g = ledger.guarantee(1e-5, new double[] {1e-3, 1e-3, 1e-3});
    assertThat(g.r()).hasSize(3);
    for (double r : g.r()) {
      assertThat(r).isLessThanOrEqualTo(1e-2);
    }
  }

  @Example
  void secretMixtureIsAccountedPerSecret() {
    double[][] probs = {{0.5, 0.5}, {1.0}, {0.0, 0.0}};
    PrivacyCost.SecretMixture mix = new PrivacyCost.SecretMixture(4.0, Math.sqrt(2), probs);
    probs[0][0] = 0.9; // defensive copy
    assertThat(mix.shiftProbsPerSecret()[0][0]).isEqualTo(0.5);
    assertThat(mix).isEqualTo(new PrivacyCost.SecretMixture(4.0, Math.sqrt(2), new double[][] {{0.5, 0.5}, {1.0}, {0.0, 0.0}}));
    PrivacyLedger ledger = gdpLedger();
    ledger.charge(new Release("clusters", "Gaussian", "counts and centres", 1, 4, mix));
    assertThat(ledger.gdpStatus()).isEqualTo(GdpStatus.UPPER_BOUND);
    double p = 1e-3;
    PrivacyGuarantee g = ledger.guarantee(1e-5, p);
    double[] r = g.r();
    assertThat(r).hasSize(3);
    // one release: exact T = 1 blow-up, S ~ Bin(2, 1/2) resp. S = 1, closed form
    double c = Math.sqrt(2) / 4;
    double z = dev.secpe.accounting.StandardNormal.quantile(p);
    double exact0 = 0.25 * p + 0.5 * dev.secpe.accounting.StandardNormal.cdf(c + z)
        + 0.25 * dev.secpe.accounting.StandardNormal.cdf(2 * c + z);
    assertThat(r[0]).isBetween(exact0, exact0 * (1 + 1e-12));
    assertThat(r[1]).isBetween(Gdp.secretR(new GdpMu(c), p) * (1 - 1e-9), Gdp.secretR(new GdpMu(c), p) * (1 + 1e-9));
    assertThat(r[2]).isEqualTo(p); // never sampled: nothing learnt
    // the GDP language is the dominating Gaussian with the largest shift
    assertThat(g.gdp().orElseThrow().mu()).isGreaterThanOrEqualTo(2 * c);
    assertThatThrownBy(
            () -> ledger.charge(new Release("other", "Gaussian", "x", 1, 4,
                new PrivacyCost.SecretMixture(4.0, 1, new double[][] {{1}}))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secrets");
  }

  /**
   * Secret j of one release is secret j of another only where both cover the same secrets: two
   * releases over two secrets each, named as different sets, are refused (before: composed by
   * count, as if the sets were one); named alike, or unnamed, they compose, and the name is part
   * of the cost's equality.
   */
  @Example
  void mixturesOverDifferentlyNamedSecretSetsAreNeverComposed() {
    double[][] two = {{1.0}, {0.5, 0.5}};
    PrivacyCost.SecretMixture a = new PrivacyCost.SecretMixture(4.0, 1, two, "set-a");
    PrivacyCost.SecretMixture b = new PrivacyCost.SecretMixture(4.0, 1, two, "set-b");
    PrivacyCost.SecretMixture unnamed = new PrivacyCost.SecretMixture(4.0, 1, two);
    assertThat(a).isNotEqualTo(b).isNotEqualTo(unnamed);
    assertThat(a).isEqualTo(new PrivacyCost.SecretMixture(4.0, 1, new double[][] {{1.0}, {0.5, 0.5}}, "set-a"));
    assertThat(a.sameSecretsAs(b)).isFalse();
    assertThat(a.sameSecretsAs(unnamed)).isTrue();
    assertThat(a.sameSecretsAs(new PrivacyCost.SecretMixture(4.0, 1, new double[][] {{1.0}}, "set-a"))).isFalse();

    PrivacyLedger ledger = PrivacyLedger.unlimited();
    ledger.charge(new Release("a", "SecretMixture", "t", 1, 4.0, a));
    ledger.charge(new Release("a2", "SecretMixture", "t", 1, 4.0, a));
    assertThatThrownBy(() -> ledger.charge(new Release("b", "SecretMixture", "t", 1, 4.0, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("covers a different secret set");
    assertThat(ledger.releases()).hasSize(2);
    // Two releases of sigma 4 with secret 0 held by one record sampled surely: mu = sqrt(2) / 4.
    double p = 1e-3;
    assertThat(ledger.guarantee(1e-5, p).r()[0])
        .isBetween(Gdp.secretR(new GdpMu(Math.sqrt(2) / 4), p) * (1 - 1e-9), Gdp.secretR(new GdpMu(Math.sqrt(2) / 4), p) * (1 + 1e-9));
    assertThatThrownBy(() -> new PrivacyCost.SecretMixture(4.0, 1, two, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secretSet must be null or non-blank");
  }

  @Example
  void snapshotRestoresAndResumedRunsNeverChargeTwice() {
    PrivacyLedger ledger = PrivacyLedger.withLimit(new DpBudget(2, 1e-5));
    ledger.charge(gauss("r0", 3));
    ledger.charge(Release.laplace("hist", "histogram", 10, Sensitivity.l1(1)));
    List<Release> snapshot = ledger.releases();
    PrivacyLedger resumed = PrivacyLedger.withLimit(new DpBudget(2, 1e-5)).restore(snapshot);
    assertThat(resumed.releases()).isEqualTo(snapshot);
    assertThat(resumed.epsilon(1e-5)).isEqualTo(ledger.epsilon(1e-5));
    assertThat(resumed.chargeIfAbsent(gauss("r0", 3))).isEqualTo(snapshot.get(0));
    assertThat(resumed.releases()).hasSize(2);
    assertThatThrownBy(() -> resumed.chargeIfAbsent(gauss("r0", 4))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> resumed.restore(snapshot)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> PrivacyLedger.withLimit(new DpBudget(0.1, 1e-5)).restore(snapshot))
        .isInstanceOf(BudgetExceededException.class);
  }

  @Example
  void badReleasesAreRejectedWithNameAndValue() {
    assertThatThrownBy(() -> new PrivacyCost.Gaussian(Double.NaN)).hasMessageContaining("noiseMultiplier=NaN");
    assertThatThrownBy(() -> new PrivacyCost.SubsampledGaussian(1, 0, 3)).hasMessageContaining("samplingRate=0.0");
    assertThatThrownBy(() -> new PrivacyCost.PureDp(-1)).hasMessageContaining("epsilon=-1.0");
    assertThatThrownBy(() -> new Release(" ", "G", "x", 1, 1, new PrivacyCost.Gaussian(1))).hasMessageContaining("id");
    assertThatThrownBy(() -> Release.gaussian("a", "x", 1, Sensitivity.l2(Double.NaN))).hasMessageContaining("sensitivity=NaN");
    assertThatThrownBy(() -> PrivacyLedger.unlimited().guarantee(Double.NaN, 0.1)).hasMessageContaining("delta=NaN");
    assertThatThrownBy(() -> PrivacyLedger.unlimited().guarantee(1e-5, 0)).hasMessageContaining("p[0]=0.0");
  }

  @Example
  void accountantIsChosenBeforeCharging() {
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    ledger.charge(Release.gaussian("a", "x", 1, Sensitivity.l2(1)));
    assertThatThrownBy(() -> ledger.accountant(PrivacyLedger.Accountant.PLD))
        .isInstanceOf(IllegalStateException.class);
  }

  // ---------------------------------------------------------------- properties

  @Provide
  Arbitrary<List<PrivacyCost>> costs() {
    Arbitrary<PrivacyCost> one =
        Arbitraries.oneOf(
            Arbitraries.doubles().between(0.3, 20).map(PrivacyCost.Gaussian::new),
            Arbitraries.doubles().between(0.5, 20).map(b -> new PrivacyCost.Laplace(b, 1)),
            Arbitraries.doubles().between(0.01, 2).map(PrivacyCost.PureDp::new),
            Arbitraries.doubles().between(0.5, 10).map(z -> new PrivacyCost.SubsampledGaussian(z, 0.1, 3)));
    return one.list().ofMinSize(0).ofMaxSize(6);
  }

  @Property(tries = 200)
  void addingAReleaseNeverImprovesAnyGuarantee(
      @ForAll("costs") List<PrivacyCost> costs, @ForAll("costs") @Size(min = 1, max = 1) List<PrivacyCost> extra) {
    PrivacyLedger ledger = gdpLedger();
    List<Release> rs = new ArrayList<>();
    for (int i = 0; i < costs.size(); i++) {
      rs.add(new Release("r" + i, "m", "x", 1, 1, costs.get(i)));
    }
    ledger.restore(rs);
    PrivacyGuarantee before = ledger.guarantee(1e-6, 1e-3);
    ledger.charge(new Release("extra", "m", "x", 1, 1, extra.get(0)));
    PrivacyGuarantee after = ledger.guarantee(1e-6, 1e-3);
    assertThat(after.epsilon()).isGreaterThanOrEqualTo(before.epsilon());
    assertThat(after.r()[0]).isGreaterThanOrEqualTo(before.r()[0] * (1 - 1e-12));
    assertThat(after.r()[0]).isGreaterThan(1e-3);
    assertThat(ledger.delta(1.0)).isBetween(0.0, 1.0);
    if (after.gdp().isPresent() && before.gdp().isPresent()) {
      assertThat(after.gdp().get().mu()).isGreaterThanOrEqualTo(before.gdp().get().mu());
    }
  }

  @Property(tries = 100)
  void aReleaseIsRefusedExactlyWhenItWouldExceedTheLimit(@ForAll("costs") List<PrivacyCost> costs) {
    DpBudget limit = new DpBudget(2.0, 1e-6);
    PrivacyLedger limited = PrivacyLedger.withLimit(limit).accountant(PrivacyLedger.Accountant.GDP);
    PrivacyLedger shadow = gdpLedger();
    for (int i = 0; i < costs.size(); i++) {
      Release r = new Release("r" + i, "m", "x", 1, 1, costs.get(i));
      PrivacyLedger trial = gdpLedger().restore(shadow.releases());
      trial.charge(r);
      boolean fits = trial.epsilon(limit.delta()) <= limit.epsilon();
      if (fits) {
        limited.charge(r);
        shadow.charge(r);
      } else {
        int before = limited.releases().size();
        assertThatThrownBy(() -> limited.charge(r)).isInstanceOf(BudgetExceededException.class);
        assertThat(limited.releases()).hasSize(before);
      }
      assertThat(limited.epsilon(limit.delta())).isLessThanOrEqualTo(limit.epsilon());
    }
  }

  @Property(tries = 15)
  void addingAReleaseNeverImprovesThePldGuarantee(
      @ForAll("costs") List<PrivacyCost> costs, @ForAll("costs") @Size(min = 1, max = 1) List<PrivacyCost> extra) {
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    for (int i = 0; i < costs.size(); i++) {
      ledger.charge(new Release("r" + i, "m", "x", 1, 1, costs.get(i)));
    }
    PrivacyGuarantee before = ledger.guarantee(1e-6, 1e-3);
    ledger.charge(new Release("extra", "m", "x", 1, 1, extra.get(0)));
    PrivacyGuarantee after = ledger.guarantee(1e-6, 1e-3);
    // PLD and GDP bounds are both valid; the min of two valid bounds may dip by the PLD's own
    // discretisation tolerance (1e-3 relative at the default interval), never more
    assertThat(after.epsilon()).isGreaterThanOrEqualTo(before.epsilon() * (1 - 1e-3));
    assertThat(after.r()[0]).isGreaterThanOrEqualTo(before.r()[0] * (1 - 1e-3));
  }

  /**
   * withUniformLimit against eq. (4): a secret held by one record sampled with certainty is a
   * Gaussian shift of 1/sigma, so its r at p = 1e-4 is 1 - Phi(PhiInv(1 - p) - 1/sigma); the
   * budget r = 1e-3 allows mu = 0.6287841792847917 (SecPE eq. 4), i.e. sigma >= 1.59037.
   */
  @Example
  void aUniformSecretLimitAcceptsUpToTheBudgetAndRefusesBeyondIt() {
    SecretBudget budget = new SecretBudget(1e-4, 1e-3);
    double[][] twoSecrets = {{1.0}, {1.0}};
    PrivacyLedger ok = PrivacyLedger.withUniformLimit(budget);
    ok.charge(new Release("a", "SecretMixture", "test", 1, 1.60, new PrivacyCost.SecretMixture(1.60, 1, twoSecrets)));
    assertThat(ok.releases()).hasSize(1);
    PrivacyLedger tight = PrivacyLedger.withUniformLimit(budget);
    assertThatThrownBy(() -> tight.charge(
            new Release("b", "SecretMixture", "test", 1, 1.58, new PrivacyCost.SecretMixture(1.58, 1, twoSecrets))))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("refused before any noise was drawn")
        .hasMessageContaining("above the limit r=0.001");
    assertThat(tight.releases()).isEmpty();
    // Two releases of sigma 1.60 compose to mu = sqrt(2)/1.60 = 0.884 > 0.6288: the second is refused.
    assertThatThrownBy(() -> ok.charge(
            new Release("c", "SecretMixture", "test", 1, 1.60, new PrivacyCost.SecretMixture(1.60, 1, twoSecrets))))
        .isInstanceOf(BudgetExceededException.class);
  }

  /**
   * The report's description of how (p, r) was bounded must not depend on who holds a secret
   * (the mixtures' sampling probabilities come from the private data): it used to say which bound
   * "won" for some secrets, an un-noised fact about the private records.
   */
  @Example
  void theSecretBoundDescriptionDependsOnPublicParametersOnly() {
    String[] described = new String[2];
    double[][][] holders = {{{1.0}, {0.3, 0.3}}, {{0.05}, {1.0, 1.0, 1.0}}};
    for (int k = 0; k < 2; k++) {
      PrivacyLedger l = PrivacyLedger.unlimited();
      l.charge(new Release("mix", "SecretMixture", "t", 1, 2.0, new PrivacyCost.SecretMixture(2.0, Math.sqrt(2), holders[k])));
      l.charge(new Release("lap", "Laplace", "t", 1, 5.0, new PrivacyCost.PureDp(0.2)));
      described[k] = l.guarantee(1e-6, 1e-4).secretMethod();
    }
    assertThat(described[0]).isEqualTo(described[1]).doesNotContain("won");
  }
}
