package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.evolution.augpe.AugPEOptions;
import dev.secpe.evolution.augpe.AugPEPlan;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.persist.ReleaseStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run's vote geometry decides whether votes are centred on the candidates' mean. */
class VoteCentreTest {

  private static final EmbeddingMatrix CANDIDATES =
      EmbeddingMatrix.of(new float[][] {{1f, 0f, 0f}, {0.6f, 0.8f, 0f}, {0f, 0f, 1f}});

  @Test
  void plainCosineMeasuresFromNoCentre() {
    assertThat(context(VoteGeometry.COSINE).voteCentre(CANDIDATES, new int[] {0, 1, 2})).isNull();
  }

  @Test
  void centredVotesAreMeasuredFromTheCandidatesMean() {
    float[] centre = context(VoteGeometry.CENTRED).voteCentre(CANDIDATES, new int[] {0, 1, 2});
    // the mean of the three rows, by hand: (1.6/3, 0.8/3, 1/3)
    assertThat((double) centre[0]).isCloseTo(1.6 / 3, within(1e-6));
    assertThat((double) centre[1]).isCloseTo(0.8 / 3, within(1e-6));
    assertThat((double) centre[2]).isCloseTo(1.0 / 3, within(1e-6));
  }

  private static RunContext context(VoteGeometry geometry) {
    PrivateDataset priv =
        PrivateDataset.of(List.of(PrivateRecord.of("p1", "a note"), PrivateRecord.of("p2", "another note")));
    EvolutionSettings s =
        AugPE.builder()
            .privateData(priv)
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .voteGeometry(geometry)
            .noise(NoNoise.INSTANCE)
            .budget(new GdpMu(1))
            .settings();
    AugPEOptions config =
        AugPE.options(new AugPE.Config(s, new GdpMu(1), false, 1e-4, 1e-5, 1, 0.0, AugPE.SelectionMode.RANK));
    PrivacyPlan plan = AugPEPlan.of(config, 1, false);
    PrivacyLedger ledger = plan.newLedger();
    return new RunContext(
        s, PrivateStore.inMemory(priv), PublicCorpus.of(List.of()), Fixtures.embedder(), ledger,
        new ReleaseStore(plan, ledger, Map.of(), v -> {}));
  }
}
