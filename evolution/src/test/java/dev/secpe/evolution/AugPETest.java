package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.NoiseMode;
import dev.secpe.core.report.PrivacyReport;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AugPETest {

  private static AugPE.Builder base() {
    return AugPE.builder()
        .privateData(Fixtures.privateData(120))
        .publicData(Fixtures.publicData(60))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(20)
        .variations(2)
        .iterations(3)
        .seed(7)
        .noise(new Fixtures.CountingNoise(1));
  }

  @Test
  void runsEndToEndAndAccountsEveryRelease() {
    RunResult result = base().budget(new DpBudget(4.0, 1e-5)).build().run();
    assertThat(result.dataset().size()).isEqualTo(20);
    Set<String> labels =
        result.dataset().records().stream()
            .map(t -> t.label().orElseThrow().name())
            .collect(Collectors.toSet());
    assertThat(labels).containsExactlyInAnyOrder("ham", "spam");
    PrivacyReport report = result.report();
    // 3 vote rounds + the label histogram: 4 Gaussian releases, all charged.
    assertThat(report.mechanisms()).hasSize(4);
    assertThat(report.mechanisms()).extracting(r -> r.id())
        .containsExactly("augpe/labels", "augpe/round-0/votes", "augpe/round-1/votes", "augpe/round-2/votes");
    // The composed guarantee is the requested one: mu = sqrt(4)/sigma must give delta(4) <= 1e-5.
    double sigma = report.sigma().orElseThrow();
    double mu = Math.sqrt(4) / sigma;
    assertThat(report.mu().orElseThrow().mu()).isCloseTo(mu, within(1e-9));
    assertThat(Gdp.deltaAt(new GdpMu(mu), 4.0)).isLessThanOrEqualTo(1e-5);
    // Never above the budget, so a user's "spent <= budget" check holds (it was 4.000000000087).
    assertThat(report.dp().orElseThrow().epsilon()).isBetween(3.9, 4.0);
    assertThat(report.noise()).isEqualTo(NoiseMode.REPRODUCIBLE_NON_PRIVATE);
    // Provenance: survivors of the last round come from rounds 0..2 with operators we know.
    for (SyntheticText t : result.dataset().records()) {
      assertThat(t.provenance().operator()).isIn("initial", "fill");
      assertThat(t.provenance().round()).isBetween(0, 2);
    }
  }

  @Test
  void pubMedSigmaMatchesTheAugPePaperAtTenRounds() {
    // Aug-PE / DPSDA: T = 10 rounds, delta = 1/(N ln N), N = 75,316: sigma = 13.25 at eps = 1.
    // Here the label histogram is public, so exactly T releases are composed.
    double delta = DpBudget.deltaForDatasetSize(75_316);
    GdpMu mu = Gdp.muFor(new DpBudget(1.0, delta));
    assertThat(Math.sqrt(10) / mu.mu()).isCloseTo(13.25, within(0.005));
  }

  @Test
  void aNonPrivateBaselineChargesNothingAndSaysSo() {
    RunResult r =
        AugPE.builder()
            .privateData(Fixtures.privateData(60))
            .labels(Fixtures.released())
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .syntheticSize(10)
            .iterations(2)
            .nonPrivate()
            .build()
            .run();
    assertThat(r.report().noise()).isEqualTo(NoiseMode.NONE);
    assertThat(r.report().dp()).isEmpty();
    assertThat(r.report().deviations()).anyMatch(d -> d.contains("nothing is protected"));
    assertThat(r.dataset().size()).isEqualTo(10);
  }

  @Test
  void refusesToRunTwice() {
    AugPE run = base().budget(new DpBudget(4.0, 1e-5)).iterations(1).build();
    run.run();
    assertThatThrownBy(run::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("single-use");
  }

  @Test
  void budgetMustBeSetOnce() {
    assertThatThrownBy(() -> base().budget(new DpBudget(1, 1e-5)).budget(new GdpMu(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("(epsilon, delta)")
        .hasMessageContaining("mu-GDP");
    assertThatThrownBy(() -> base().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("required settings missing: budget (budget(DpBudget | GdpMu | SecretBudget) or nonPrivate())");
  }

  // fault: missing builder settings
  // holds: one `build()` error names every missing setting
  @Test
  void everyMissingSettingIsNamedInOneMessage() {
    assertThatThrownBy(() -> AugPE.builder().syntheticSize(5).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("required settings missing: privateData, generator, embedder, budget (budget(DpBudget"
            + " | GdpMu | SecretBudget) or nonPrivate())");
    assertThatThrownBy(() -> SecPE.builder().privateData(Fixtures.privateData(10)).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("required settings missing: generator, embedder, budget (budget(SecretBudget) or"
            + " nonPrivate()), secrets (secrets(SecretDetector)), publicData (SecPE's clusters are built"
            + " on public data only; secretFreeAsPublic(true) builds them on the private records that hold no"
            + " secret)");
  }

  @Test
  void labelledPrivateDataNeedsADeclaredLabelSet() {
    assertThatThrownBy(
            () ->
                AugPE.builder()
                    .privateData(Fixtures.privateData(10))
                    .generator(Fixtures.generator())
                    .embedder(Fixtures.embedder())
                    .budget(new GdpMu(1))
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("labels(LabelSet)");
  }

  @Test
  void warnsWhenTheVoteNoiseExceedsTheAverageVote() {
    // 120 private records over 20 x (2 + 1) = 60 candidates: 2 votes a candidate on average.
    RunResult tight = base().budget(new DpBudget(0.5, 1e-5)).build().run();
    assertThat(tight.report().sigma().getAsDouble()).isGreaterThan(2.0);
    assertThat(tight.report().warnings()).singleElement().asString()
        .contains("exceeds the average vote a candidate receives (2.00: 120 private records over 60 candidates");
    RunResult loose = base().budget(new DpBudget(200, 1e-5)).build().run();
    assertThat(loose.report().sigma().getAsDouble()).isLessThan(2.0);
    assertThat(loose.report().warnings()).isEmpty();
  }

  @Test
  void theIssuesUselessSettingsAreWarnedAboutBeforeTheRun() {
    // issue 13: no warning for epsilon 1e-9 (sigma in the tens of thousands) or for a million
    // iterations (the per-round noise grows with sqrt(T)); warnings() knows both at build()
    assertThat(base().budget(new DpBudget(1e-9, 1e-5)).build().warnings()).singleElement().asString()
        .contains("exceeds the average vote a candidate receives");
    assertThat(base().budget(new DpBudget(4, 1e-5)).iterations(1_000_000).build().warnings())
        .singleElement().asString().contains("exceeds the average vote a candidate receives");
    assertThat(base().budget(new DpBudget(200, 1e-5)).build().warnings()).isEmpty();
  }

  /**
   * issue 13: a delta of 1/N or more was refused by the CLI only; a library user got no word of
   * it. 120 private records: 1/N = 0.00833.
   */
  @Test
  void aDeltaNotBelowOneOverNIsWarnedAboutBeforeTheRunAndInTheReport() {
    AugPE large = base().budget(new DpBudget(200, 1.0 / 120)).iterations(1).build();
    assertThat(large.warnings()).singleElement().asString()
        .startsWith("delta=" + (1.0 / 120) + " is not below 1/N = " + (1.0 / 120) + " (N = 120 private records)");
    assertThat(large.run().report().warnings()).anySatisfy(w -> assertThat(w).contains("is not below 1/N"));
    assertThat(base().budget(new DpBudget(200, Math.nextDown(1.0 / 120))).build().warnings()).isEmpty();
  }
}
