package dev.secpe.llm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class FakesTest {

  @Test
  void everyKthCallFailsWithTheChosenKind() {
    FakeTextEmbedder e = FakeTextEmbedder.builder()
        .faults(FaultPlan.none().failingEvery(3, FaultPlan.Failure.RETRYABLE)).build();
    e.embed(List.of("a"));
    e.embed(List.of("b"));
    assertThatThrownBy(() -> e.embed(List.of("c")))
        .isInstanceOf(ProviderException.Retryable.class).hasMessageContaining("call 3");
    e.embed(List.of("d"));
    assertThat(e.calls()).isEqualTo(4);
    assertThat(e.injectedFailures()).isEqualTo(1);

    FakeTextGenerator g = FakeTextGenerator.builder()
        .faults(FaultPlan.none().failingEvery(2, FaultPlan.Failure.PERMANENT)).build();
    assertThat(g.generate(ContractRequests.mixed(1, 1))).hasSize(1);
    assertThatThrownBy(() -> g.generate(ContractRequests.mixed(1, 1)))
        .isInstanceOf(ProviderException.Permanent.class);
  }

  @Test
  void bothFakesTakeTheSameSettingsWithTheSameDefaultsAndChecks() {
    FakeTextEmbedder e = FakeTextEmbedder.builder().build();
    FakeTextGenerator g = FakeTextGenerator.builder().build();
    assertThat(List.of(e.name(), g.name())).containsOnly("fake");
    assertThat(List.of(e.locality(), g.locality())).containsOnly(Locality.LOCAL);
    // The shared settings chain with each fake's own, in any order.
    FakeTextEmbedder e2 = FakeTextEmbedder.builder().name("e").dimension(8).locality(Locality.REMOTE).build();
    FakeTextGenerator g2 = FakeTextGenerator.builder().concurrency(3).name("g").locality(Locality.REMOTE).build();
    assertThat(e2.toString()).isEqualTo("FakeTextEmbedder{e, dimension=8, REMOTE}");
    assertThat(g2.toString()).isEqualTo("FakeTextGenerator{g, REMOTE, concurrency=3}");
    assertThatThrownBy(() -> FakeTextEmbedder.builder().name(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("name must not be blank");
    assertThatThrownBy(() -> FakeTextGenerator.builder().name(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("name must not be blank");
    assertThatThrownBy(() -> FakeTextGenerator.builder().locality(null))
        .isInstanceOf(NullPointerException.class).hasMessage("locality");
    assertThatThrownBy(() -> FakeTextEmbedder.builder().faults(null))
        .isInstanceOf(NullPointerException.class).hasMessage("faults");
  }

  @Test
  void latencyDelaysEveryCallAndConcurrencyIsBounded() throws Exception {
    FakeTextGenerator g = FakeTextGenerator.builder().concurrency(2)
        .faults(FaultPlan.none().withLatency(Duration.ofMillis(50))).build();
    long t0 = System.nanoTime();
    CompletableFuture<List<GenerationResult>> f = g.generateAsync(ContractRequests.mixed(6, 3));
    Thread.sleep(10);
    assertThat(g.limiter().inFlight()).isEqualTo(2);
    assertThat(f.get()).hasSize(6);
    // 6 requests, 2 at a time, 50 ms each: at least 3 waves
    assertThat((System.nanoTime() - t0) / 1e6).isGreaterThanOrEqualTo(150);
  }

  @Test
  void generatedTextFollowsTheTaskAndHonoursLimits() {
    GenerationParams p = new GenerationParams(1, 1, 5, List.of(), OptionalLong.of(9));
    GenerationResult random = FakeTextGenerator.respond(new GenerationRequest(
        List.of(dev.secpe.llm.ChatMessage.user("x")), new GenerationTask.Random("pos", List.of("kw"), 30), p));
    assertThat(random.text().split(" ")).hasSize(5).startsWith("pos", "kw");
    assertThat(random.finishReason()).isEqualTo(GenerationResult.FinishReason.LENGTH);
    GenerationParams stop = new GenerationParams(1, 1, 50, List.of(" b "), OptionalLong.empty());
    GenerationResult cut = FakeTextGenerator.respond(new GenerationRequest(
        List.of(dev.secpe.llm.ChatMessage.user("x")), new GenerationTask.FillIn("a b c d", 0, 0, null), stop));
    assertThat(cut.text()).isEqualTo("a");
    GenerationResult rewrite = FakeTextGenerator.respond(new GenerationRequest(
        List.of(dev.secpe.llm.ChatMessage.user("x")), new GenerationTask.Rewrite("one two three four", null), p));
    assertThat(rewrite.text().split(" ")).containsExactlyInAnyOrder("one", "two", "three", "four");
  }

  @Test
  void similarTextsGetCloserVectorsThanUnrelatedOnes() {
    FakeTextEmbedder e = FakeTextEmbedder.builder().dimension(256).locality(Locality.REMOTE).build();
    float[][] v = e.embed(List.of("the pasta was cold", "the pasta was warm", "quarterly tax filing deadline"));
    assertThat(dot(v[0], v[1])).isGreaterThan(dot(v[0], v[2]));
    assertThat(e.locality()).isEqualTo(Locality.REMOTE);
  }

  /** The contracts can fail: a generator that drops a result and an embedder of the wrong shape. */
  @Test
  void contractsCatchBrokenProviders() {
    TextGenerator dropsOne = new TextGenerator() {
      final FakeTextGenerator inner = FakeTextGenerator.builder().build();

      @Override
      public String name() {
        return "broken";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> r) {
        return inner.generateAsync(r).thenApply(l -> l.isEmpty() ? l : l.subList(1, l.size()));
      }
    };
    TextGeneratorContract gc = () -> dropsOne;
    assertThatThrownBy(() -> gc.oneResultPerRequest(3, 1)).isInstanceOf(AssertionFailedError.class);

    TextGenerator reverses = new TextGenerator() {
      final FakeTextGenerator inner = FakeTextGenerator.builder().build();

      @Override
      public String name() {
        return "reverses";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> r) {
        return inner.generateAsync(r).thenApply(l -> {
          List<GenerationResult> c = new java.util.ArrayList<>(l);
          java.util.Collections.reverse(c);
          return c;
        });
      }
    };
    TextGeneratorContract order = new TextGeneratorContract() {
      @Override
      public TextGenerator generator() {
        return reverses;
      }

      @Override
      public boolean deterministicUnderSeed() {
        return true;
      }
    };
    assertThatThrownBy(() -> order.resultsFollowRequestOrder(5)).isInstanceOf(AssertionFailedError.class);

    // issue 13: a generator answering "" passed the contract, and a run then spent its budget on
    // 20 of 20 blank synthetic texts
    TextGenerator blank = new TextGenerator() {
      final FakeTextGenerator inner = FakeTextGenerator.builder().build();

      @Override
      public String name() {
        return "blank";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> r) {
        return inner.generateAsync(r).thenApply(l -> l.stream()
            .map(x -> new GenerationResult("", x.finishReason(), x.promptTokens(), x.completionTokens()))
            .toList());
      }
    };
    TextGeneratorContract blanks = () -> blank;
    assertThatThrownBy(() -> blanks.oneResultPerRequest(3, 1))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("no blank texts");

    TextEmbedder notUnit = new TextEmbedder() {
      @Override
      public String name() {
        return "not-unit";
      }

      @Override
      public int dimension() {
        return 2;
      }

      @Override
      public boolean normalized() {
        return true;
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public float[][] embed(List<String> texts) {
        float[][] out = new float[texts.size()][];
        for (int i = 0; i < out.length; i++) {
          out[i] = new float[] {1, 1};
        }
        return out;
      }
    };
    TextEmbedderContract ec = () -> notUnit;
    assertThatThrownBy(() -> ec.oneVectorPerTextOfConstantDimension(List.of("a")))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("unit norm");
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
