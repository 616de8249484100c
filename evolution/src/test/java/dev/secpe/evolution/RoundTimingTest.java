package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.report.Phase;
import dev.secpe.core.report.PhaseTimings;
import dev.secpe.core.report.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Round t's generation is the generation of round t's population: its progress comes after round
 * t - 1 finished, and its time is in round t's timings (it was in round t - 1's, leaving round 1's
 * generation at 0.0 s in every report).
 */
class RoundTimingTest {

  @Test
  void eachRoundsGenerationIsTimedAndReportedInThatRound() {
    List<String> order = new ArrayList<>();
    List<PhaseTimings> finished = new ArrayList<>();
    RunResult r = AugPE.builder()
        .privateData(Fixtures.privateData(40))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(8)
        .iterations(3)
        .nonPrivate()
        .listener(e -> {
          if (e instanceof RunEvent.Progress p && p.phase() == Phase.GENERATION) {
            String s = "generation " + p.round();
            if (order.isEmpty() || !order.get(order.size() - 1).equals(s)) {
              order.add(s);
            }
          } else if (e instanceof RunEvent.RoundFinished f) {
            order.add("done " + f.round());
            finished.add(f.timings());
          }
        })
        .build()
        .run();

    assertThat(order).containsExactly(
        "generation 0", "done 0", "generation 1", "done 1", "generation 2", "done 2");
    List<PhaseTimings> rounds = r.report().roundTimings();
    assertThat(rounds).hasSize(3).isEqualTo(finished);
    for (int t = 0; t < 3; t++) {
      assertThat(rounds.get(t).seconds(Phase.GENERATION)).as("round %d generation", t).isPositive();
      assertThat(rounds.get(t).seconds(Phase.EMBEDDING)).as("round %d embedding", t).isPositive();
    }
  }
}
