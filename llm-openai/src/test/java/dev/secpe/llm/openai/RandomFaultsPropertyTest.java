package dev.secpe.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.llm.GenerationResult;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Under any mix of fast faults (500, malformed body, reset connection), at most {@code maxRetries}
 * per request, every request is answered exactly once, in order, with exactly one attempt per
 * fault plus one.
 */
class RandomFaultsPropertyTest {

  private static final LoopbackOpenAi.Fault[] FAST = {
    LoopbackOpenAi.Fault.SERVER_ERROR, LoopbackOpenAi.Fault.MALFORMED, LoopbackOpenAi.Fault.RESET
  };

  @Property(tries = 8)
  void noRequestLostNoneDuplicatedOrderKept(
      @ForAll @IntRange(min = 1, max = 24) int n,
      @ForAll @IntRange(min = 1, max = 8) int concurrency,
      @ForAll long seed) throws Exception {
    SplittableRandom rng = new SplittableRandom(seed);
    int[] faults = new int[n];
    LoopbackOpenAi.Fault[][] plan = new LoopbackOpenAi.Fault[n][];
    for (int i = 0; i < n; i++) {
      faults[i] = rng.nextInt(3); // 0, 1 or 2 failed attempts before success
      plan[i] = new LoopbackOpenAi.Fault[faults[i]];
      for (int k = 0; k < faults[i]; k++) {
        plan[i][k] = FAST[rng.nextInt(FAST.length)];
      }
    }
    LoopbackOpenAi.Script script = (id, attempt) -> {
      int i = Integer.parseInt(id.substring(4));
      return attempt <= plan[i].length ? plan[i][attempt - 1] : LoopbackOpenAi.Fault.NONE;
    };
    try (LoopbackOpenAi server = new LoopbackOpenAi(script, Duration.ZERO, Duration.ZERO);
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(OpenAiTextGeneratorTest.fastConfig(server)
            .maxConcurrency(concurrency).maxRetries(2).initialBackoff(Duration.ofMillis(1))
            .maxBackoff(Duration.ofMillis(5)).build())) {
      List<GenerationResult> results = gen.generate(OpenAiTextGeneratorTest.requests(n));
      OpenAiTextGeneratorTest.assertEchoesInOrder(results, n);
      int retries = 0;
      for (int i = 0; i < n; i++) {
        assertThat(server.attemptsOf("req-" + i)).isEqualTo(faults[i] + 1);
        retries += faults[i];
      }
      assertThat(gen.stats().retries()).isEqualTo(retries);
      assertThat(server.maxInFlight.get()).isLessThanOrEqualTo(concurrency);
    }
  }
}
