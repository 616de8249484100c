package dev.secpe.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of {@link Gdp}: ranges, monotonicity, round trips, safe sides, composition. */
class GdpPropertiesTest {

  /** 10^x: probabilities and deltas are drawn in log space so the tails are exercised. */
  private static double pow10(double x) {
    return Math.pow(10, x);
  }

  @Property
  void blowUpAndTradeOffAreProbabilitiesAndComplementary(
      @ForAll @DoubleRange(min = 0, max = 10) double mu,
      @ForAll @DoubleRange(min = -12, max = -0.0001) @net.jqwik.api.constraints.Scale(6) double logAlpha) {
    double alpha = pow10(logAlpha);
    double b = Gdp.blowUp(new GdpMu(mu), alpha);
    double t = Gdp.tradeOff(new GdpMu(mu), alpha);
    assertThat(b).isBetween(0.0, 1.0);
    assertThat(t).isBetween(0.0, 1.0);
    // B >= alpha (mu >= 0 never helps the adversary less than guessing), and B = 1 - G up to rounding
    assertThat(b).isGreaterThanOrEqualTo(alpha * (1 - 1e-12));
    assertThat(b + t).isBetween(1 - 1e-9, 1 + 1e-9);
  }

  @Property
  void blowUpIsMonotoneInAlphaAndMu(
      @ForAll @DoubleRange(min = 0, max = 8) double mu,
      @ForAll @DoubleRange(min = 0, max = 2) double dmu,
      @ForAll @DoubleRange(min = -10, max = -0.01) double logAlpha,
      @ForAll @DoubleRange(min = 0, max = 2) double dLogAlpha) {
    double a1 = pow10(logAlpha);
    double a2 = Math.min(1, pow10(logAlpha + dLogAlpha));
    assertThat(Gdp.blowUp(new GdpMu(mu), a1)).isLessThanOrEqualTo(Gdp.blowUp(new GdpMu(mu), a2));
    assertThat(Gdp.blowUp(new GdpMu(mu), a1))
        .isLessThanOrEqualTo(Gdp.blowUp(new GdpMu(mu + dmu), a1));
    assertThat(Gdp.tradeOff(new GdpMu(mu), a1))
        .isGreaterThanOrEqualTo(Gdp.tradeOff(new GdpMu(mu + dmu), a1));
  }

  @Property
  void deltaIsAProbabilityDecreasingInEpsilonIncreasingInMu(
      @ForAll @net.jqwik.api.constraints.Scale(6) @DoubleRange(min = 0.001, max = 10) double mu,
      @ForAll @DoubleRange(min = 0, max = 1) double dmu,
      @ForAll @DoubleRange(min = 0, max = 30) double eps,
      @ForAll @DoubleRange(min = 0, max = 5) double deps) {
    double d = Gdp.deltaAt(new GdpMu(mu), eps);
    assertThat(d).isBetween(0.0, 1.0);
    assertThat(Gdp.deltaAt(new GdpMu(mu), eps + deps)).isLessThanOrEqualTo(d);
    assertThat(Gdp.deltaAt(new GdpMu(mu + dmu), eps)).isGreaterThanOrEqualTo(d);
  }

  @Property
  void epsilonIsOnTheSafeSideAndTight(
      @ForAll @DoubleRange(min = 0.01, max = 10) double mu,
      @ForAll @DoubleRange(min = -14, max = -1) double logDelta) {
    double delta = pow10(logDelta);
    double eps = Gdp.epsilonAt(new GdpMu(mu), delta);
    assertThat(Gdp.deltaAt(new GdpMu(mu), eps)).isLessThanOrEqualTo(delta);
    if (eps > 0) {
      assertThat(Gdp.deltaAt(new GdpMu(mu), eps * (1 - 1e-9))).isGreaterThan(delta);
    }
  }

  @Property
  void epsilonIsMonotone(
      @ForAll @DoubleRange(min = 0.05, max = 8) double mu,
      @ForAll @DoubleRange(min = 0, max = 1) double dmu,
      @ForAll @DoubleRange(min = -12, max = -1) double logDelta,
      @ForAll @DoubleRange(min = 0, max = 2) double dLogDelta) {
    double delta = pow10(logDelta);
    double e = Gdp.epsilonAt(new GdpMu(mu), delta);
    assertThat(Gdp.epsilonAt(new GdpMu(mu + dmu), delta)).isGreaterThanOrEqualTo(e);
    assertThat(Gdp.epsilonAt(new GdpMu(mu), Math.min(0.5, delta * pow10(dLogDelta))))
        .isLessThanOrEqualTo(e);
  }

  @Property
  void quantileInvertsCdfDeepInTheTails(
      @ForAll @DoubleRange(min = -300, max = -0.31) double logP) {
    double p = pow10(logP);
    double x = StandardNormal.quantile(p);
    assertThat(Math.abs(StandardNormal.cdf(x) - p) / p).isLessThan(1e-12);
    double q = Math.min(Math.max(p, 1e-3), 0.49);
    assertThat(StandardNormal.quantile(1 - q))
        .isCloseTo(-StandardNormal.quantile(q), org.assertj.core.data.Offset.offset(1e-9));
  }

  @Property
  void normalFunctionsAreMonotone(
      @ForAll @DoubleRange(min = -37, max = 8) double x, @ForAll @DoubleRange(min = 0, max = 1) double dx) {
    assertThat(StandardNormal.cdf(x + dx)).isGreaterThanOrEqualTo(StandardNormal.cdf(x));
    assertThat(StandardNormal.logCdf(x + dx)).isGreaterThanOrEqualTo(StandardNormal.logCdf(x));
    assertThat(StandardNormal.cdf(x)).isBetween(0.0, 1.0);
  }

  @Property
  void muForDpIsMonotone(
      @ForAll @DoubleRange(min = 0.01, max = 10) double eps,
      @ForAll @DoubleRange(min = 0, max = 2) double deps,
      @ForAll @DoubleRange(min = -12, max = -2) double logDelta,
      @ForAll @DoubleRange(min = 0, max = 1) double dLog) {
    double delta = pow10(logDelta);
    double mu = Gdp.muFor(new DpBudget(eps, delta)).mu();
    assertThat(Gdp.muFor(new DpBudget(eps + deps, delta)).mu()).isGreaterThanOrEqualTo(mu);
    assertThat(Gdp.muFor(new DpBudget(eps, delta * pow10(dLog))).mu()).isGreaterThanOrEqualTo(mu);
  }

  // fault: reported epsilon above the budget by rounding (4.000000000087 for 4)
  // holds: the noise is calibrated on the safe side with the ledger's slack, so the reported epsilon never exceeds the budget
  @Property
  void muForDpIsOnTheSafeSideAndTight(
      @ForAll @DoubleRange(min = 0.01, max = 20) double eps,
      @ForAll @DoubleRange(min = -14, max = -1) double logDelta) {
    double delta = pow10(logDelta);
    double mu = Gdp.muFor(new DpBudget(eps, delta)).mu();
    assertThat(Gdp.deltaAt(new GdpMu(mu), eps)).isLessThanOrEqualTo(delta);
    assertThat(Gdp.deltaAt(new GdpMu(mu * (1 + 1e-9)), eps)).isGreaterThan(delta);
  }

  @Property
  void sigmaToEpsilonToSigmaRoundTrips(
      @ForAll @DoubleRange(min = 0.2, max = 50) double sigma,
      @ForAll @DoubleRange(min = -12, max = -2) double logDelta) {
    double delta = pow10(logDelta);
    double eps = Gdp.epsilonAt(new GdpMu(1 / sigma), delta);
    Assume.that(eps > 1e-6);
    double back = Calibration.analyticGaussianSigma(new DpBudget(eps, delta), 1.0);
    // eps was rounded up, so the sigma for it may be a hair smaller, never by more than tolerance
    assertThat((back - sigma) / sigma).isBetween(-1e-8, 1e-8 + Calibration.LEDGER_SLACK);
    assertThat(Gdp.deltaAt(new GdpMu(1 / back), eps)).isLessThanOrEqualTo(delta);
  }

  @Property
  void muToSecretToMuRoundTripsOnTheSafeSide(
      @ForAll @DoubleRange(min = -6, max = -0.5) double logP,
      @ForAll @net.jqwik.api.constraints.Scale(6) @DoubleRange(min = 0.001, max = 4) double mu) {
    double p = pow10(logP);
    double r = Gdp.secretR(new GdpMu(mu), p);
    Assume.that(r < 1 - 1e-9 && r > p * (1 + 1e-6));
    double back = Gdp.muFor(new SecretBudget(p, r)).mu();
    // r was rounded up by the evaluation margin, so back may exceed mu by a hair; it must
    // still meet r and be close to mu.
    assertThat(Math.abs(mu - back)).isLessThan(1e-7 * mu + 1e-9);
    assertThat(Gdp.secretR(new GdpMu(back), p)).isLessThanOrEqualTo(r);
  }

  @Property
  void secretMuIsMonotone(
      @ForAll @DoubleRange(min = -6, max = -1) double logP,
      @ForAll @DoubleRange(min = 0.01, max = 3) double logRatio,
      @ForAll @DoubleRange(min = 0, max = 1) double more) {
    double p = pow10(logP);
    double r = Math.min(0.99, p * pow10(logRatio));
    double r2 = Math.min(0.995, r * pow10(more));
    GdpMu mu = Gdp.muFor(new SecretBudget(p, r));
    assertThat(Gdp.muFor(new SecretBudget(p, r2)).mu()).isGreaterThanOrEqualTo(mu.mu());
    // a larger prior at the same r leaves less room: mu decreases in p
    double p2 = Math.min(p * pow10(more * 0.5), r * 0.999);
    assertThat(Gdp.muFor(new SecretBudget(p2, r)).mu()).isLessThanOrEqualTo(mu.mu());
  }

  @Property
  void compositionIsMonotoneAndDominatesItsParts(
      @ForAll @Size(min = 1, max = 20) List<@DoubleRange(min = 0, max = 5) Double> mus,
      @ForAll @DoubleRange(min = 0, max = 5) double extra) {
    List<GdpMu> list = new ArrayList<>();
    double max = 0;
    double sumSq = 0;
    for (double m : mus) {
      list.add(new GdpMu(m));
      max = Math.max(max, m);
      sumSq += m * m;
    }
    double c = Gdp.compose(list).mu();
    assertThat(c).isGreaterThanOrEqualTo(max);
    assertThat(c).isGreaterThanOrEqualTo(Math.sqrt(sumSq) * (1 - 1e-15));
    assertThat(c).isLessThanOrEqualTo(Math.sqrt(sumSq) * (1 + 1e-9) + 1e-300);
    List<GdpMu> more = new ArrayList<>(list);
    more.add(new GdpMu(extra));
    assertThat(Gdp.compose(more).mu()).isGreaterThanOrEqualTo(c);
  }

  @Property
  void selfCompositionIsSqrtT(
      @ForAll @net.jqwik.api.constraints.Scale(6) @DoubleRange(min = 0.001, max = 5) double mu, @ForAll @IntRange(min = 1, max = 10_000) int t) {
    double got = Gdp.compose(new GdpMu(mu), t).mu();
    assertThat((got - Math.sqrt(t) * mu) / (Math.sqrt(t) * mu)).isBetween(0.0, 1e-9);
  }

  @Property
  void lemmaC2OptimumBeatsEveryC(
      @ForAll @DoubleRange(min = 0, max = 8) double eps,
      @ForAll @DoubleRange(min = -12, max = -2) double logDelta,
      @ForAll @DoubleRange(min = -6, max = -0.5) double logP,
      @ForAll @DoubleRange(min = 0, max = 12) double logC) {
    double delta = pow10(logDelta);
    double p = pow10(logP);
    double r = Gdp.lemmaC2(new DpBudget(eps, delta), p);
    double atC = Gdp.lemmaC2At(Math.exp(eps), (1 - p) / p, delta, Math.exp(logC));
    assertThat(r).isLessThanOrEqualTo(atC * (1 + 2 * Gdp.EVALUATION_MARGIN));

    assertThat(r).isGreaterThan(p);
  }

  @Property
  void lemmaC2IsMonotone(
      @ForAll @DoubleRange(min = 0, max = 8) double eps,
      @ForAll @DoubleRange(min = 0, max = 1) double deps,
      @ForAll @DoubleRange(min = -12, max = -2) double logDelta,
      @ForAll @DoubleRange(min = -6, max = -0.5) double logP,
      @ForAll @DoubleRange(min = 0, max = 0.4) double dLog) {
    double delta = pow10(logDelta);
    double p = pow10(logP);
    double r = Gdp.lemmaC2(new DpBudget(eps, delta), p);
    assertThat(Gdp.lemmaC2(new DpBudget(eps + deps, delta), p)).isGreaterThanOrEqualTo(r);
    assertThat(Gdp.lemmaC2(new DpBudget(eps, delta * pow10(dLog)), p)).isGreaterThanOrEqualTo(r);
    assertThat(Gdp.lemmaC2(new DpBudget(eps, delta), Math.min(0.9, p * pow10(dLog))))
        .isGreaterThanOrEqualTo(r);
  }

  @Property
  void naiveCompositionIsMaxAndSum(
      @ForAll @DoubleRange(min = -5, max = -2) double logP1,
      @ForAll @DoubleRange(min = -5, max = -2) double logP2,
      @ForAll @DoubleRange(min = 0.01, max = 1) double l1,
      @ForAll @DoubleRange(min = 0.01, max = 1) double l2,
      @ForAll @IntRange(min = 1, max = 5) int m) {
    SecretBudget a = new SecretBudget(pow10(logP1), pow10(logP1 + l1));
    SecretBudget b = new SecretBudget(pow10(logP2), pow10(logP2 + l2));
    SecretBudgets c = SecretBudgets.uniform(a, m).composeNaive(SecretBudgets.uniform(b, m));
    assertThat(c.size()).isEqualTo(m);
    for (int j = 0; j < m; j++) {
      assertThat(c.get(j).p()).isEqualTo(Math.max(a.p(), b.p()));
      assertThat(c.get(j).r()).isGreaterThanOrEqualTo(a.r() + b.r());
      assertThat(c.get(j).r()).isGreaterThanOrEqualTo(Math.max(a.r(), b.r()));
    }
  }

  @Example
  void extremeArgumentsNeitherOverflowNorProduceNan() {
    assertThat(Gdp.deltaAt(new GdpMu(1), 800)).isEqualTo(0.0);
    assertThat(Gdp.deltaAt(new GdpMu(1), 1e6)).isEqualTo(0.0);
    assertThat(Gdp.deltaAt(new GdpMu(1e-9), 1)).isEqualTo(0.0);
    assertThat(Gdp.deltaAt(new GdpMu(60), 1)).isBetween(0.99, 1.0);
    assertThat(Gdp.deltaAt(new GdpMu(1e-9), 0)).isBetween(0.0, 1e-9);
    // delta(eps; mu) at a tail where the naive formula cancels: mu = 0.5, eps = 10 -> ~1e-88
    double d = Gdp.deltaAt(new GdpMu(0.5), 10);
    assertThat(d).isGreaterThan(0).isLessThan(1e-80);
    assertThat(Gdp.epsilonAt(new GdpMu(40), 1e-10)).isFinite().isGreaterThan(700);
    assertThat(Gdp.secretR(new GdpMu(40), 1e-4)).isEqualTo(1.0);
    assertThatThrownBy(() -> Gdp.toSecret(new GdpMu(40), 1e-4)).isInstanceOf(IllegalStateException.class);
    assertThat(Gdp.muFor(new SecretBudget(0.1, Math.nextUp(0.1))).mu()).isBetween(0.0, 1e-12);
  }

  @Example
  void lemmaC2CanUndercutEquation4() {
    // Documented caveat (see Gdp#lemmaC2): mu-GDP is (eps(delta), delta)-DP for every delta, yet
    // Lemma C.2 on one such pair gives a smaller r than the tight eq. (4). mpmath (50 digits):
    // B_mu(p) = 0.226557402..., eps(0.1) = 4.95477290..., Lemma C.2 = 0.22510429...
    GdpMu mu = new GdpMu(2.34);
    double eq4 = Gdp.secretR(mu, 1e-3);
    assertThat(eq4).isBetween(0.2265574, 0.2265575);
    double c2 = Gdp.lemmaC2(Gdp.toDp(mu, 0.1), 1e-3);
    assertThat(c2).isBetween(0.225104, 0.225105).isLessThan(eq4);
    // the (eps, delta) blow-up, which the ledger uses, never undercuts eq. (4)
    assertThat(Gdp.blowUp(Gdp.toDp(mu, 0.1), 1e-3)).isGreaterThan(eq4);
  }

  @Property
  void dpBlowUpNeverUndercutsEquation4(
      @ForAll @DoubleRange(min = 0.05, max = 5) double mu,
      @ForAll @DoubleRange(min = -12, max = -1) double logDelta,
      @ForAll @DoubleRange(min = -6, max = -0.5) double logP) {
    double p = pow10(logP);
    double eq4 = Gdp.secretR(new GdpMu(mu), p);
    double viaDp = Gdp.blowUp(Gdp.toDp(new GdpMu(mu), pow10(logDelta)), p);
    assertThat(viaDp).isGreaterThanOrEqualTo(eq4 * (1 - 1e-12)).isBetween(p, 1.0);
  }

  @Example
  void augPePublishedSigmasForPubMed() {
    // Aug-PE (Xie et al. 2024) / SecPE Table: PubMed N = 75,316, T = 10, delta = 1/(N ln N).
    double delta = DpBudget.deltaForDatasetSize(75_316);
    double[] eps = {1, 2, 4};
    double[] published = {13.25, 7.00, 3.75};
    for (int i = 0; i < eps.length; i++) {
      double sigma = Calibration.privateEvolutionNoise(new DpBudget(eps[i], delta), 10).sigma();
      assertThat(Math.round(sigma * 100) / 100.0).as("eps=%s", eps[i]).isEqualTo(published[i]);
    }
  }

  @Example
  void nanAndOutOfRangeAreRejectedWithNameAndValue() {
    assertThatThrownBy(() -> new GdpMu(Double.NaN)).hasMessageContaining("mu=NaN");
    assertThatThrownBy(() -> new SecretBudget(0.001, 0.0001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("r must exceed p, got p=0.001 r=1.0E-4");
    assertThatThrownBy(() -> new SecretBudget(Double.NaN, 0.1)).hasMessageContaining("p=NaN");
    assertThatThrownBy(() -> new DpBudget(1, Double.NaN)).hasMessageContaining("delta=NaN");
    assertThatThrownBy(() -> Gdp.blowUp(new GdpMu(1), Double.NaN)).hasMessageContaining("alpha=NaN");
    assertThatThrownBy(() -> Gdp.epsilonAt(new GdpMu(1), 0)).hasMessageContaining("delta=0.0");
    assertThatThrownBy(() -> Gdp.secretR(new GdpMu(1), 1.0)).hasMessageContaining("p=1.0");
    assertThatThrownBy(() -> StandardNormal.quantile(Double.NaN)).hasMessageContaining("p=NaN");
    assertThatThrownBy(() -> Calibration.classicGaussianSigma(new DpBudget(1.5, 1e-5), 1))
        .hasMessageContaining("epsilon=1.5");
    assertThatThrownBy(() -> Calibration.laplaceScale(1, Double.NaN))
        .hasMessageContaining("sensitivity=NaN");
    assertThatThrownBy(() -> SecretBudgets.uniform(new SecretBudget(0.1, 0.2), 0))
        .hasMessageContaining("secretCount=0");
  }

  /** gdpNoise lands on the safe side: the guarantee computed back never exceeds the budget. */
  @Property(tries = 200)
  void gdpNoiseNeverExceedsTheBudgetItWasCalibratedFor(
      @ForAll @DoubleRange(min = 0.05, max = 10) double epsilon,
      @ForAll @DoubleRange(min = -10, max = -3) double log10Delta,
      @ForAll @IntRange(min = 1, max = 60) int releases) {
    double delta = Math.pow(10, log10Delta);
    GdpMu mu = Gdp.muFor(new DpBudget(epsilon, delta));
    Assume.that(mu.mu() > 0);
    double sigma = Calibration.gdpNoise(mu, releases).sigma();
    GdpMu back = new GdpMu(Math.sqrt(releases) / sigma);
    assertThat(back.mu()).isLessThanOrEqualTo(mu.mu());
    assertThat(Gdp.deltaAt(back, epsilon)).isLessThanOrEqualTo(delta);
    assertThat(Gdp.epsilonAt(back, delta)).isLessThanOrEqualTo(epsilon);
    // and not wastefully: within the slack (plus rounding) of the exact multiplier
    assertThat(sigma / (Math.sqrt(releases) / mu.mu()) - 1).isBetween(0.0, 2e-9);
  }
}
