package dev.secpe.evolution;

import dev.secpe.evolution.augpe.AugPEMethod;
import dev.secpe.evolution.dpga.DPGAMethod;
import dev.secpe.evolution.engine.Engine;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.secpe.SecPEMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
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
    PrivacyLedger ledger = new AugPEMethod(config).newLedger();
    for (int i = 0; i < 5; i++) {
      ledger.charge(gaussian("r" + i, sigma));
    }
    assertThatThrownBy(() -> ledger.charge(gaussian("r5", sigma)))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("refused before any noise was drawn");
  }

  @Test
  void dpgasLedgerIsLimitedToItsEpsilonAndDelta() {
    DPGA.Config config =
        DPGA.builder().privateData(Fixtures.privateData(100)).publicData(Fixtures.publicData(50))
            .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
            .syntheticSize(16).iterations(2).budget(new DpBudget(1.0, 1e-5)).build().config();
    PrivacyLedger ledger = new DPGAMethod(config, null).newLedger();
    // A Gaussian of sigma 1 alone costs far more than epsilon 1 at delta 1e-5 (about 4.4).
    assertThatThrownBy(() -> ledger.charge(gaussian("too-much", 1.0)))
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
    PrivacyLedger ledger = new SecPEMethod(config).newLedger();
    // A secret in one always-sampled record behind noise sigma is a Gaussian shift 1/sigma; (1e-4,
    // 1e-3) allows mu = 0.6288 (eq. 4): sigma 1.6 passes, and the same release again does not.
    double[][] secrets = {{1.0}, {1.0}, {1.0}};
    ledger.charge(new Release("a", "SecretMixture", "t", 1, 1.6, new PrivacyCost.SecretMixture(1.6, 1, secrets)));
    assertThatThrownBy(() -> ledger.charge(
            new Release("b", "SecretMixture", "t", 1, 1.6, new PrivacyCost.SecretMixture(1.6, 1, secrets))))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("above the limit r=0.001");
  }

  @Test
  void theEngineRefusesAReleaseBeyondTheBudgetBeforeDrawingItsNoise() {
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(3);
    EvolutionSettings settings = augpe(noise).build().config().settings();
    // Two releases of mu = 1 each against a limit of mu = 1.2: the second must not be drawn.
    Method greedy = new Method() {
      @Override public String name() {
        return "greedy";
      }

      @Override public void prepare(RunContext ctx) {
        for (int i = 0; i < 2; i++) {
          String id = "greedy/" + i;
          ctx.store().release(id, () -> gaussian(id, 1.0), () -> new double[] {ctx.noise().gaussian(1.0)});
        }
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

      @Override public PrivacyLedger newLedger() {
        return PrivacyLedger.withLimit(new GdpMu(1.2));
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
    };
    Engine engine = new Engine(greedy, settings, PrivateStore.inMemory(Fixtures.privateData(100)), Fixtures.publicData(50),
        Fixtures.generator(), Fixtures.embedder(), "greedy", new AtomicBoolean(), null);
    assertThatThrownBy(engine::run)
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("greedy/1 refused before any noise was drawn");
    assertThat(noise.draws.get()).isEqualTo(1);
  }
  @Test
  void aNonPrivateRunsLedgerAdmitsNoReleaseInAnyMethod() {
    List<PrivacyLedger> ledgers = new java.util.ArrayList<>();
    ledgers.add(new AugPEMethod(AugPE.builder().privateData(Fixtures.privateData(20)).publicData(Fixtures.publicData(20))
        .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
        .nonPrivate().build().config()).newLedger());
    ledgers.add(new DPGAMethod(DPGA.builder().privateData(Fixtures.privateData(20)).publicData(Fixtures.publicData(20))
        .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
        .nonPrivate().build().config(), null).newLedger());
    ledgers.add(new SecPEMethod(SecPE.builder().privateData(Fixtures.privateData(20)).publicData(Fixtures.publicData(20))
        .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
        .nonPrivate().build().config()).newLedger());
    for (PrivacyLedger l : ledgers) {
      // Even a release that costs next to nothing: a non-private run must never reach a charge.
      assertThatThrownBy(() -> l.charge(gaussian("votes", 1e6)))
          .isInstanceOf(BudgetExceededException.class)
          .hasMessageContaining("admits no release");
    }
  }
}
