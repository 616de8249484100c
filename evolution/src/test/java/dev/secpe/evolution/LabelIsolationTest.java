package dev.secpe.evolution;

import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.evolution.augpe.AugPEMethod;
import dev.secpe.evolution.augpe.AugPEOptions;
import dev.secpe.evolution.augpe.AugPEPlan;
import dev.secpe.evolution.persist.ReleaseStore;
import dev.secpe.evolution.engine.RunContext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.Provenance;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.SyntheticText;
import dev.secpe.llm.testkit.FakeTextEmbedder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A private record votes only among candidates of its own label. */
class LabelIsolationTest {

  private static final Label A = Label.of("a");
  private static final Label B = Label.of("b");

  @Test
  void aRecordNeverVotesForACandidateOfAnotherLabel() {
    // Private records of label a whose text is identical to a label-b candidate: without isolation
    // they would all vote for it.
    String twin = "refund my order number please";
    PrivateDataset priv =
        PrivateDataset.of(
            List.of(
                PrivateRecord.of("p1", twin, A),
                PrivateRecord.of("p2", twin, A),
                PrivateRecord.of("p3", "the weather is lovely today", B)));
    FakeTextEmbedder embedder = Fixtures.embedder();
    EvolutionSettings s =
        AugPE.builder()
            .privateData(priv)
            .generator(Fixtures.generator())
            .embedder(embedder)
            .labels(new LabelSet.DeclaredPublic(Map.of(A, 0.5, B, 0.5)))
            .noise(NoNoise.INSTANCE)
            .budget(new GdpMu(1))
            .settings();
    AugPEOptions config = AugPE.options(new AugPE.Config(s, new GdpMu(1), false, 1e-4, 1e-5, 1, 0.0, AugPE.SelectionMode.RANK));
    PrivacyPlan plan = AugPEPlan.of(config, 2, false);
    PrivacyLedger ledger = plan.newLedger();
    RunContext ctx =
        new RunContext(s, PrivateStore.inMemory(priv), PublicCorpus.of(List.of()), embedder, ledger, new ReleaseStore(plan, ledger, Map.of(), v -> {}));
    AugPEMethod method = new AugPEMethod(config, plan);
    ctx.embedPrivate(); // as the engine does before prepare
    method.prepare(ctx);
    List<SyntheticText> pop =
        List.of(
            cand("c0", "an unrelated note about gardens", A),
            cand("c1", twin, B),
            cand("c2", "sunny weather and a lovely day", B));
    EmbeddingMatrix unit =
        EmbeddingMatrix.of(embedder.embed(pop.stream().map(SyntheticText::text).toList()))
            .normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO);
    double[] votes = method.vote(ctx, 0, pop, unit);
    // Both label-a records vote for the only label-a candidate; the label-b twin gets only p3's
    // vote if p3 is nearer to it than to c2 - and never the two label-a votes.
    assertThat(votes[0]).isEqualTo(2.0);
    assertThat(votes[1] + votes[2]).isEqualTo(1.0);
  }

  private static SyntheticText cand(String id, String text, Label l) {
    return new SyntheticText(id, text, Optional.of(l), Provenance.initial());
  }
}
