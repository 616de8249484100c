package dev.secpe.evolution;

import dev.secpe.evolution.ctcl.CTCLPlan;
import dev.secpe.evolution.dpga.DPGAPlan;
import dev.secpe.evolution.dpga.VoteCalibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.SyntheticText;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DPGATest {

  private static DPGA.Builder base() {
    return DPGA.builder()
        .privateData(Fixtures.privateData(150))
        .publicData(Fixtures.publicData(80))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .budget(new DpBudget(4.0, 1e-5))
        .syntheticSize(12)
        .iterations(2)
        .tauSample(60)
        .seed(9)
        .noise(new Fixtures.CountingNoise(5));
  }

  @Test
  void runsEndToEndChargingEveryReleaseIncludingTauWithThePapersSuppression() {
    DPGA run = base().similaritySuppression(DPGA.Suppression.PAPER).build();
    RunResult result = run.run();
    assertThat(result.dataset().size()).isEqualTo(12);
    List<String> ids = result.report().mechanisms().stream().map(Release::id).toList();
    assertThat(ids)
        .containsExactly(
            "dpga/length-max",
            "dpga/length-min",
            "dpga/length-histogram",
            "dpga/labels",
            "dpga/keywords",
            "dpga/tau",
            "dpga/votes");
    // The ledger's PLD composition of all of them stays within the budget.
    assertThat(result.report().dp().orElseThrow().epsilon()).isLessThanOrEqualTo(4.0 + 1e-9);
    assertThat(result.report().deviations()).anyMatch(d -> d.contains("the paper's own analysis"));
    Set<String> ops =
        result.dataset().records().stream().map(t -> t.provenance().operator()).collect(Collectors.toSet());
    assertThat(ops).isSubsetOf("initial", "rewrite", "fill", "cross", "generate");
  }

  @Test
  void byDefaultOnlyNearDuplicatesAreSuppressedAndTauIsNeitherReleasedNorCharged() {
    RunResult result = base().build().run();
    List<String> ids = result.report().mechanisms().stream().map(Release::id).toList();
    assertThat(ids).doesNotContain("dpga/tau").endsWith("dpga/keywords", "dpga/votes");
    assertThat(result.report().deviations()).anyMatch(d -> d.contains("only from near-duplicates (cosine >= 0.95"));
    // Without tau's share the votes get more of the budget: less noise than with the paper's rule.
    assertThat(result.report().sigma().orElseThrow())
        .isLessThan(base().similaritySuppression(DPGA.Suppression.PAPER).build().run().report().sigma().orElseThrow());
  }

  @Test
  void pldCalibrationIsTighterThanThePapersAnalysis() {
    DPGA.Config c = base().iterations(10).build().config();
    double eps = c.budget().epsilon();
    VoteCalibration v = DPGAPlan.calibrateVotes(DPGA.options(c), DPGAPlan.metadata(DPGA.options(c), true), 2);
    assertThat(v.sigma()).isLessThan(v.paperSigma());
    // At our sigma the paper's (looser) analysis would claim more than the budget.
    assertThat(v.paperEpsilonAtPldSigma()).isGreaterThan(eps);
  }

  @Test
  void anUnreachableBudgetIsAClearError() {
    // delta(0; mu) ~ 0.4 mu must stay below delta = 1e-12: the votes would need sigma > 1e6.
    assertThatThrownBy(() -> base().budget(new DpBudget(1e-9, 1e-12)).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("budget unreachable");
  }

  @Test
  void freshSubsamplesPerRoundAreChargedPerRound() {
    List<String> ids =
        base().freshSubsamplePerRound(true).build().run().report().mechanisms().stream().map(Release::id).toList();
    assertThat(ids).endsWith("dpga/keywords", "dpga/round-0/votes", "dpga/round-1/votes");
  }

  @Test
  void elitesAreDistinctUnderSuppression() {
    RunResult result = base().similaritySuppression(DPGA.Suppression.PAPER).iterations(1).build().run();
    List<String> texts = result.dataset().records().stream().map(SyntheticText::text).toList();
    assertThat(texts).doesNotHaveDuplicates();
  }

  @Test
  void uselessVoteNoiseIsWarnedAboutBeforeTheRun() {
    // issue 13: warnings known at build(), printed by bin/secpe run before anything is read
    List<String> tight = base().budget(new DpBudget(1, 1e-5)).build().warnings();
    assertThat(tight).singleElement().asString()
        .startsWith("DPGA's vote noise (sigma = ")
        .contains("exceeds the average vote a candidate receives")
        .contains("of 150 private records over");
    assertThat(base().samplingRate(1.0).budget(new DpBudget(8, 1e-5)).build().warnings()).isEmpty();
  }
}
