package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one-off embedding of the private (and, for SecPE, public) records is reported as progress of
 * the embedding phase, batch by batch, so that a console can show texts per second and the time
 * left: before, a run said nothing while it embedded the private set, its longest silent phase.
 */
class OneOffEmbeddingProgressTest {

  private static AugPE.Builder augpe(int privateRecords) {
    return AugPE.builder()
        .privateData(Fixtures.privateData(privateRecords))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(8)
        .iterations(1)
        .nonPrivate();
  }

  @Test
  void thePrivateRecordsAreReportedBatchByBatchBeforeTheFirstRound() {
    List<String> seen = new ArrayList<>();
    augpe(150).listener(e -> {
      if (e instanceof RunEvent.Progress p && p.phase() == Phase.EMBEDDING) {
        seen.add(p.round() + ":" + p.done() + "/" + p.total());
      } else if (e instanceof RunEvent.RoundStarted) {
        seen.add("round started");
      }
    }).build().run();

    // PrivateTexts embeds in batches of 64; then round 0 embeds its candidates.
    assertThat(seen).startsWith("0:64/150", "0:128/150", "0:150/150", "round started");
  }

  @Test
  void secpeReportsItsPublicRecordsAsASecondStretch() {
    List<String> seen = new ArrayList<>();
    SecPE.builder()
        .privateData(Fixtures.privateData(70))
        .publicData(Fixtures.publicData(80))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(8)
        .iterations(1)
        .clusters(4)
        .nonPrivate()
        .listener(e -> {
          if (e instanceof RunEvent.Progress p && p.phase() == Phase.EMBEDDING && p.round() == 0
              && seen.size() < 4) {
            seen.add(p.done() + "/" + p.total());
          }
        })
        .build()
        .run();

    assertThat(seen).containsExactly("64/70", "70/70", "64/80", "80/80");
  }

  @Test
  void aListenerThatThrowsDuringTheEmbeddingStopsTheRunWithItsOwnException() {
    class Stop extends RuntimeException {
      Stop() {
        super("listener says stop");
      }
    }
    assertThatThrownBy(() -> augpe(150).listener(e -> {
      if (e instanceof RunEvent.Progress p && p.phase() == Phase.EMBEDDING) {
        throw new Stop();
      }
    }).build().run()).isInstanceOf(Stop.class).hasMessage("listener says stop");
  }
}
