package dev.secpe.evolution;

import dev.secpe.evolution.engine.Engine;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.engine.RunKind;
import dev.secpe.evolution.persist.ReleaseCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.SyntheticText;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The engine runs on the method's ledger, limited to the budget: nothing beyond it is drawn. */
class BudgetLimitTest {

  private static AugPE.Builder augpe(Fixtures.CountingNoise noise) {
    return Fixtures.augpe(noise);
  }

  private static Release gaussian(String id, double sigma) {
    return new Release(id, "Gaussian", "test", 1.0, sigma, new PrivacyCost.Gaussian(sigma));
  }

  @Test
  void augPesLedgerTakesItsPlannedReleasesAndRefusesOneMore() {
    AugPE.Config config = augpe(new Fixtures.CountingNoise(1)).build().config();
    // T = 4 votes and the label histogram: 5 Gaussian releases of the calibrated sigma compose to
    // mu = sqrt(5) / sigma <= the budget; a sixth gives sqrt(6) / sigma > it.
    double sigma = Calibration.gdpNoise(config.totalMu(), 5).sigma();
    assertThat(Math.sqrt(6) / sigma).isGreaterThan(config.totalMu().mu());
    AugPE run = augpe(new Fixtures.CountingNoise(1)).build();
    PrivacyLedger ledger = run.privacyPlan().newLedger();
    assertThat(run.privacyPlan().calibratedReleases()).hasSize(5)
        .allSatisfy(r -> assertThat(r.noiseScale()).isEqualTo(sigma));
    run.privacyPlan().calibratedReleases().forEach(ledger::charge);
    // A sixth release: outside the plan, and beyond the budget in any case.
    assertThatThrownBy(() -> ledger.charge(gaussian("r5", sigma)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refused before any noise was drawn");
    PrivacyLedger limited = PrivacyLedger.withLimit(config.totalMu());
    run.privacyPlan().calibratedReleases().forEach(limited::charge);
    assertThatThrownBy(() -> limited.charge(gaussian("r5", sigma)))
        .isInstanceOf(BudgetExceededException.class);
  }

  @Test
  void dpgasLedgerIsLimitedToItsEpsilonAndDelta() {
    DPGA.Config config =
        DPGA.builder().privateData(Fixtures.privateData(100)).publicData(Fixtures.publicData(50))
            .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
            .syntheticSize(16).iterations(2).budget(new DpBudget(1.0, 1e-5)).build().config();
    PrivacyLedger ledger =
        DPGA.builder().privateData(Fixtures.privateData(100)).publicData(Fixtures.publicData(50))
            .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
            .syntheticSize(16).iterations(2).budget(new DpBudget(1.0, 1e-5)).build().privacyPlan().newLedger();
    // A Gaussian of sigma 1 alone costs far more than epsilon 1 at delta 1e-5 (about 4.4).
    // Not in the plan: refused whatever it costs.
    assertThatThrownBy(() -> ledger.charge(gaussian("too-much", 1.0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not in the run's privacy plan");
    // In the plan but with less noise than planned: refused too.
    Release votes = ledger.plan().orElseThrow().calibrated("dpga/votes");
    assertThatThrownBy(() -> ledger.charge(new Release(votes.id(), votes.mechanism(), votes.protects(), 1.0,
            votes.noiseScale() / 2, new PrivacyCost.SubsampledGaussian(votes.noiseScale() / 2, 0.8, 1))))
        .hasMessageContaining("differs from its planned release");
    // And a ledger limited to (1, 1e-5) alone refuses it by the budget.
    assertThatThrownBy(() -> PrivacyLedger.withLimit(config.budget()).charge(gaussian("too-much", 1.0)))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("exceeds the limit epsilon=1.0");
  }

  @Test
  void secPesLedgerIsLimitedToItsSecretBudgetForEverySecret() {
    SecPE.Config config =
        SecPE.builder().privateData(Fixtures.privateData(100)).publicData(Fixtures.publicData(50))
            .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
            .syntheticSize(16).iterations(2).budget(new dev.secpe.accounting.SecretBudget(1e-4, 1e-3))
            .secrets(dev.secpe.core.secret.PiiDetector.all()).build().config();
    PrivacyLedger ledger = PrivacyLedger.withUniformLimit(config.budget());
    // A secret in one always-sampled record behind noise sigma is a Gaussian shift 1/sigma; (1e-4,
    // 1e-3) allows mu = 0.6288 (eq. 4): sigma 1.6 passes, and the same release again does not.
    double[][] secrets = {{1.0}, {1.0}, {1.0}};
    ledger.charge(new Release("a", "SecretMixture", "t", 1, 1.6, new PrivacyCost.SecretMixture(1.6, 1, secrets)));
    assertThatThrownBy(() -> ledger.charge(
            new Release("b", "SecretMixture", "t", 1, 1.6, new PrivacyCost.SecretMixture(1.6, 1, secrets))))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("above the limit r=0.001");
  }

  // fault: a release that would take a run past its budget (a calibration bug, a bad checkpoint)
  // holds: refused when it is charged, before its noise is drawn: the engine runs on a ledger limited to the method's budget, mu-GDP for Aug-PE, (epsilon, delta) for DPGA, (p, r) for every secret SecPE finds and (epsilon, delta) for CTCL; a non-private run's ledger admits no release at all
  @Test
  void theEngineRefusesAReleaseBeyondTheBudgetBeforeDrawingItsNoise() {
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(3);
    EvolutionSettings settings = augpe(noise).build().config().settings();
    // Two releases whose noise is solved at run time, each of mu = 1, against a limit of mu = 1.2:
    // the plan admits both names, the budget only the first; the second must not be drawn.
    PrivacyPlan plan = PrivacyPlan.limitedTo(new GdpMu(1.2))
        .solvedFromData("greedy/0", "Gaussian").solvedFromData("greedy/1", "Gaussian").build();
    Method greedy = new StubMethod(plan) {
      @Override public void prepare(RunContext ctx) {
        for (int i = 0; i < 2; i++) {
          String id = "greedy/" + i;
          ctx.store().releaseSolved(id, () -> gaussian(id, 1.0), ReleaseCodec.doubles(),
              () -> new double[] {ctx.noise().gaussian(1.0)});
        }
      }
    };
    Engine engine = new Engine(greedy, RunKind.recordLevel("greedy"), settings, PrivateStore.inMemory(Fixtures.privateData(100)), Fixtures.publicData(50),
        Fixtures.generator(), Fixtures.embedder(), "greedy", new AtomicBoolean(), null);
    assertThatThrownBy(engine::run)
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("greedy/1 refused before any noise was drawn");
    assertThat(noise.draws.get()).isEqualTo(1);
  }
  @Test
  void theLedgerRefusesAReleaseThePlanDoesNotNameBeforeDrawingItsNoise() {
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(3);
    EvolutionSettings settings = augpe(noise).build().config().settings();
    PrivacyPlan plan = PrivacyPlan.limitedTo(new GdpMu(1.2)).calibrated(gaussian("greedy/0", 1.0)).build();
    // The method charges a release of its own making under a name the plan does not have.
    Method rogue = new StubMethod(plan) {
      @Override public void prepare(RunContext ctx) {
        ctx.store().release("greedy/0", () -> new double[] {ctx.noise().gaussian(1.0)});
        ctx.store().releaseSolved("rogue", () -> gaussian("rogue", 100.0), ReleaseCodec.doubles(),
            () -> new double[] {ctx.noise().gaussian(100.0)});
      }
    };
    Engine engine = new Engine(rogue, RunKind.recordLevel("rogue"), settings, PrivateStore.inMemory(Fixtures.privateData(100)), Fixtures.publicData(50),
        Fixtures.generator(), Fixtures.embedder(), "rogue", new AtomicBoolean(), null);
    assertThatThrownBy(engine::run)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'rogue' refused before any noise was drawn: it is not in the run's privacy plan");
    assertThat(noise.draws.get()).isEqualTo(1);
  }

  /** A method that makes no round (its prepare is the test). */
  private abstract static class StubMethod implements Method {
    private final PrivacyPlan plan;

    StubMethod(PrivacyPlan plan) {
      this.plan = plan;
    }

    @Override public String name() {
      return "stub";
    }

    @Override public List<Offspring> initial(RunContext ctx, SplittableRandom rng) {
      throw new AssertionError("not reached");
    }

    @Override public double[] vote(RunContext ctx, int round, List<SyntheticText> p, EmbeddingMatrix u) {
      throw new AssertionError("not reached");
    }

    @Override public List<Offspring> vary(RunContext ctx, int round, List<SyntheticText> s, SplittableRandom rng) {
      throw new AssertionError("not reached");
    }

    @Override public PrivacyPlan plan() {
      return plan;
    }

    @Override public double reportDelta() {
      return 1e-5;
    }

    @Override public double reportPrior() {
      return 1e-4;
    }

    @Override public List<String> deviations(RunContext ctx) {
      return List.of();
    }
  }

  @Test
  void aNonPrivateRunsPlanReleasesNothingInAnyMethod() {
    List<PrivacyPlan> plans = new java.util.ArrayList<>();
    plans.add(AugPE.builder().privateData(Fixtures.privateData(20)).publicData(Fixtures.publicData(20))
        .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
        .nonPrivate().build().privacyPlan());
    plans.add(DPGA.builder().privateData(Fixtures.privateData(20)).publicData(Fixtures.publicData(20))
        .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
        .nonPrivate().build().privacyPlan());
    // K = 4: the default 20 asks for 10 clusters per label of a 20-record public set, which
    // build() now refuses (before, only run() did)
    plans.add(SecPE.builder().privateData(Fixtures.privateData(20)).publicData(Fixtures.publicData(20))
        .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
        .clusters(4).nonPrivate().build().privacyPlan());
    for (PrivacyPlan p : plans) {
      assertThat(p.isPrivate()).isFalse();
      assertThat(p.steps()).isEmpty();
      // Even a release that costs next to nothing: a non-private run must never reach a charge.
      assertThatThrownBy(() -> p.newLedger().charge(gaussian("votes", 1e6)))
          .isInstanceOf(BudgetExceededException.class)
          .hasMessageContaining("admits no release");
    }
  }
}
