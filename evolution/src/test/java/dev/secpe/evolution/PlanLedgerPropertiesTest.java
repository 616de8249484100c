package dev.secpe.evolution;


import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PlanCalibrator;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.LabelSet;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.llm.embedded.NgramTextGenerator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * For random configurations of every method, the ledger after a run is the plan solved at
 * build(): the same releases in the same order, each calibrated one equal to its planned release
 * (mechanism, sensitivity, noise, cost), no release missing, none extra, and the composition within
 * the budget.
 */
class PlanLedgerPropertiesTest {

  private static final double DELTA = 1e-5;

  private static LabelSet labels(boolean released) {
    return released
        ? Fixtures.released()
        : new LabelSet.DeclaredPublic(Map.of(BundledCorpus.HAM, 0.7, BundledCorpus.SPAM, 0.3));
  }

  /** The run's ledger (as the report lists it) is its plan, and a covered release is never charged. */
  private static void ledgerIsThePlan(PrivacyPlan plan, RunResult result) {
    List<Release> charged = result.report().mechanisms();
    List<String> expected = plan.steps().stream()
        .filter(st -> !(st instanceof PrivacyPlan.Covered)).map(PrivacyPlan.Step::id).toList();
    assertThat(charged).extracting(Release::id).containsExactlyElementsOf(expected);
    for (Release r : charged) {
      PrivacyPlan.Step st = plan.step(r.id()).orElseThrow();
      if (st instanceof PrivacyPlan.Calibrated c) {
        assertThat(r).isEqualTo(c.release());
      } else {
        assertThat(r.mechanism()).isEqualTo(((PrivacyPlan.SolvedFromData) st).mechanism());
      }
    }
  }

  @Property(tries = 8)
  void dpgasLedgerIsItsPlan(
      @ForAll @DoubleRange(min = 0.5, max = 6) double eps,
      @ForAll @IntRange(min = 1, max = 3) int rounds,
      @ForAll boolean fresh,
      @ForAll boolean labelsReleased,
      @ForAll DPGA.Suppression suppression) {
    DPGA run =
        DPGA.builder()
            .privateData(Fixtures.privateData(80))
            .publicData(Fixtures.publicData(40))
            .labels(labels(labelsReleased))
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .syntheticSize(10)
            .iterations(rounds)
            .tauSample(40)
            .freshSubsamplePerRound(fresh)
            .similaritySuppression(suppression)
            .noise(NoiseSources.reproducibleForTests(3))
            .budget(new DpBudget(eps, DELTA))
            .build();
    RunResult result = run.run();
    ledgerIsThePlan(run.privacyPlan(), result);
    // One subsample: its release covers the T rounds; fresh ones: T charged rounds.
    assertThat(run.privacyPlan().steps().stream().filter(st -> st instanceof PrivacyPlan.Covered).count())
        .isEqualTo(fresh ? 0 : rounds);
    // Length max and min, length and keyword histograms; tau only with the paper's suppression.
    assertThat(result.report().mechanisms()).hasSize(
        4 + (suppression == DPGA.Suppression.PAPER ? 1 : 0) + (labelsReleased ? 1 : 0) + (fresh ? rounds : 1));
    assertThat(PlanCalibrator.epsilon(result.report().mechanisms(), DELTA)).isLessThanOrEqualTo(eps);
  }

  @Property(tries = 6)
  void ctclsLedgerIsItsPlan(
      @ForAll @DoubleRange(min = 1, max = 8) double eps,
      @ForAll @DoubleRange(min = 5, max = 20) double histogramSigma,
      @ForAll @IntRange(min = 5, max = 40) int steps) {
    try (NgramTextGenerator gen =
        NgramTextGenerator.builder().order(3).threads(1).seed(3).train(Fixtures.publicData(80).texts()).build()) {
      CTCL run =
          CTCL.builder()
              .privateData(Fixtures.privateData(60))
              .publicData(Fixtures.publicData(80))
              .labels(Fixtures.released())
              .generator(gen)
              .embedder(Fixtures.embedder())
              .syntheticSize(10)
              .topics(3)
              .steps(steps)
              .batchSize(15)
              .histogramSigma(histogramSigma)
              .noise(NoiseSources.reproducibleForTests(5))
              .budget(new DpBudget(eps, DELTA))
              .build();
      RunResult result = run.run();
      ledgerIsThePlan(run.privacyPlan(), result);
      CTCL.Accounting a = run.accounting().orElseThrow();
      // Independent of the plan object: the costs of the paper's two mechanisms (Appendix D, E).
      assertThat(result.report().mechanisms()).extracting(Release::cost).containsExactly(
          new PrivacyCost.Gaussian(histogramSigma), new PrivacyCost.SubsampledGaussian(a.noiseMultiplier(), 15.0 / 60, steps));
      assertThat(PlanCalibrator.epsilon(result.report().mechanisms(), DELTA)).isLessThanOrEqualTo(eps);
    }
  }

  @Property(tries = 8)
  void augPesLedgerIsItsPlanAndSpendsItsMu(
      @ForAll @DoubleRange(min = 0.2, max = 4) double mu,
      @ForAll @IntRange(min = 1, max = 4) int rounds,
      @ForAll boolean labelsReleased) {
    AugPE run =
        AugPE.builder()
            .privateData(Fixtures.privateData(60))
            .publicData(Fixtures.publicData(30))
            .labels(labels(labelsReleased))
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .syntheticSize(8)
            .iterations(rounds)
            .noise(NoiseSources.reproducibleForTests(7))
            .budget(new GdpMu(mu))
            .build();
    RunResult r = run.run();
    ledgerIsThePlan(run.privacyPlan(), r);
    assertThat(r.report().mechanisms()).hasSize(rounds + (labelsReleased ? 1 : 0));
    // Gaussian releases compose exactly in mu-GDP: sqrt(sum 1/sigma_i^2) is the budget's mu.
    double composed = Math.sqrt(r.report().mechanisms().stream()
        .mapToDouble(m -> 1 / (m.noiseScale() / m.sensitivity() * m.noiseScale() / m.sensitivity())).sum());
    assertThat(composed).isLessThanOrEqualTo(mu * (1 + 1e-9)).isGreaterThan(mu * (1 - 1e-6));
  }

  @Property(tries = 6)
  void secPesLedgerIsItsPlan(
      @ForAll @IntRange(min = 0, max = 3) int cap,
      @ForAll boolean reRelease,
      @ForAll @IntRange(min = 1, max = 3) int rounds,
      @ForAll @DoubleRange(min = 3, max = 50) double ratio) {
    SecretBudget budget = SecretBudget.ofRatio(1e-3, ratio);
    SecPE.Builder b =
        SecPE.builder()
            .privateData(Fixtures.privateData(80))
            .publicData(Fixtures.publicData(60))
            .labels(Fixtures.released())
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .syntheticSize(8)
            .clusters(4)
            .iterations(rounds)
            .reReleasePerRound(reRelease)
            .secrets(PiiDetector.all())
            .noise(NoiseSources.reproducibleForTests(11))
            .budget(budget);
    if (cap > 0) {
      b.secretCap(cap);
    }
    SecPE run = b.build();
    RunResult result = run.run();
    ledgerIsThePlan(run.privacyPlan(), result);
    // Two label groups, released once or every round; with a cap the second group of a round is
    // covered by the first (one Gaussian of sensitivity sqrt(2) K over both).
    int releases = 2 * (reRelease ? rounds : 1);
    assertThat(run.privacyPlan().steps()).hasSize(releases);
    assertThat(result.report().mechanisms()).hasSize(cap > 0 ? releases / 2 : releases);
    // Every secret's composed r stays within the budget.
    assertThat(result.report().secretBudget().map(SecretBudget::r).orElse(0.0)).isLessThanOrEqualTo(budget.r() * (1 + 1e-9));
  }
}
