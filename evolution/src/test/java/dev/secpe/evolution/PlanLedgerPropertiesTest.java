package dev.secpe.evolution;

import dev.secpe.evolution.ctcl.CTCLPlan;
import dev.secpe.evolution.dpga.DPGAPlan;

import dev.secpe.evolution.engine.Labels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.PlanCalibrator;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.LabelSet;
import dev.secpe.llm.embedded.NgramTextGenerator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * For random configurations, what a run charges is what its plan said, and never more than the
 * budget: no release missing, none extra.
 */
class PlanLedgerPropertiesTest {

  private static final double DELTA = 1e-5;

  private static LabelSet labels(boolean released) {
    return released
        ? Fixtures.released()
        : new LabelSet.DeclaredPublic(Map.of(BundledCorpus.HAM, 0.7, BundledCorpus.SPAM, 0.3));
  }

  @Property(tries = 8)
  void dpgasLedgerComposesToItsPlan(
      @ForAll @DoubleRange(min = 0.5, max = 6) double eps,
      @ForAll @IntRange(min = 1, max = 3) int rounds,
      @ForAll boolean fresh,
      @ForAll boolean labelsReleased) {
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
            .noise(NoiseSources.reproducibleForTests(3))
            .budget(new DpBudget(eps, DELTA))
            .build();
    List<Release> charged = run.run().report().mechanisms();
    List<Release> plan =
        DPGAPlan.plan(run.config(), Labels.of(Fixtures.privateData(80).isLabelled(), run.config().settings().labels()), run.calibration().sigma());
    // Same releases: T fresh vote releases replace the plan's one release of T rounds.
    assertThat(charged).hasSize(fresh ? plan.size() - 1 + rounds : plan.size());
    double spent = PlanCalibrator.epsilon(charged, DELTA);
    assertThat(spent).isLessThanOrEqualTo(eps);
    assertThat(spent).isCloseTo(PlanCalibrator.epsilon(plan, DELTA), org.assertj.core.data.Percentage.withPercentage(0.1));
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
      List<Release> charged = run.run().report().mechanisms();
      CTCL.Accounting a = run.accounting().orElseThrow();
      List<Release> plan = CTCLPlan.plan(histogramSigma, a.noiseMultiplier(), a.samplingRate(), steps);
      assertThat(charged).extracting(Release::id).containsExactlyElementsOf(plan.stream().map(Release::id).toList());
      assertThat(charged).extracting(Release::cost).containsExactlyElementsOf(plan.stream().map(Release::cost).toList());
      assertThat(PlanCalibrator.epsilon(charged, DELTA)).isLessThanOrEqualTo(eps);
    }
  }

  @Property(tries = 8)
  void augPesLedgerSpendsItsMuAndNoMore(
      @ForAll @DoubleRange(min = 0.2, max = 4) double mu,
      @ForAll @IntRange(min = 1, max = 4) int rounds,
      @ForAll boolean labelsReleased) {
    RunResult r =
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
            .build()
            .run();
    assertThat(r.report().mechanisms()).hasSize(rounds + (labelsReleased ? 1 : 0));
    // Gaussian releases compose exactly in mu-GDP: sqrt(sum 1/sigma_i^2) is the budget's mu.
    double composed = Math.sqrt(r.report().mechanisms().stream()
        .mapToDouble(m -> 1 / (m.noiseScale() / m.sensitivity() * m.noiseScale() / m.sensitivity())).sum());
    assertThat(composed).isLessThanOrEqualTo(mu * (1 + 1e-9)).isGreaterThan(mu * (1 - 1e-6));
  }
}
