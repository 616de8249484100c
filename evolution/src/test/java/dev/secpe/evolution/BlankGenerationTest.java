package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A generator that returns blank texts stops the run with a clear error instead of blank output. */
class BlankGenerationTest {

  private static final TextGenerator BLANK = new TextGenerator() {
    @Override
    public String name() {
      return "blank";
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
      return CompletableFuture.completedFuture(requests.stream()
          .map(r -> new GenerationResult("  ", GenerationResult.FinishReason.STOP, 0, 0)).toList());
    }
  };

  // fault: generator returns blank text
  // holds: the run stops naming the generator, request and round, and the test kit's generator contract fails such a generator (also `FakesTest`)
  @Test
  void blankGenerationsAreRejected() {
    assertThatThrownBy(() -> AugPE.builder()
            .privateData(Fixtures.privateData(40))
            .publicData(Fixtures.publicData(20))
            .labels(Fixtures.released())
            .generator(BLANK)
            .embedder(Fixtures.embedder())
            .syntheticSize(5)
            .iterations(1)
            .budget(new DpBudget(2.0, 1e-5))
            .noise(new Fixtures.CountingNoise(1))
            .build()
            .run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("generator 'blank' returned a blank text for request 0 of round 0");
  }
}
