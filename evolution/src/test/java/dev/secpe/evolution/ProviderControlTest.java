package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Providers that hang, fail or answer wrongly: the run stays in control and says what is wrong. */
class ProviderControlTest {

  /** A generator whose futures never complete (after {@code answered} calls that do). */
  private static final class Hanging implements TextGenerator {
    final TextGenerator inner = Fixtures.generator();
    final AtomicInteger calls = new AtomicInteger();
    final int answered;
    final AtomicInteger cancelledFutures = new AtomicInteger();

    Hanging(int answered) {
      this.answered = answered;
    }

    @Override
    public String name() {
      return "hanging";
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
      if (calls.incrementAndGet() <= answered) {
        return inner.generateAsync(requests);
      }
      CompletableFuture<List<GenerationResult>> never = new CompletableFuture<>();
      never.whenComplete((r, e) -> cancelledFutures.incrementAndGet());
      return never;
    }
  }

  private static AugPE.Builder augpe(TextGenerator g, TextEmbedder e) {
    return AugPE.builder()
        .privateData(Fixtures.privateData(40))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(g)
        .embedder(e)
        .syntheticSize(8)
        .iterations(2)
        .nonPrivate();
  }

  // fault: generator or embedder never answers
  // holds: each batch is cancelled after `generationTimeout` / `embeddingTimeout` (default 30 min, `--provider-timeout`) and tried again `providerRetries` times (default 2), then the run stops naming the provider, the batch size and the timeout; `cancel()` or interrupting the running thread frees a blocked run at once and cancels the in-flight request
  @Test
  void aGeneratorThatNeverAnswersTimesOutAfterItsRetriesAndIsCancelled() {
    Hanging g = new Hanging(0);
    long t0 = System.nanoTime();
    assertThatThrownBy(
            () -> augpe(g, Fixtures.embedder()).generationTimeout(Duration.ofMillis(150)).providerRetries(1).build().run())
        .isInstanceOf(ProviderFault.class)
        .hasMessage("provider 'hanging' did not answer a batch of 24 inputs within PT0.15S (2 attempts); raise the"
            + " timeout (generationTimeout / embeddingTimeout) or check the service");
    assertThat(g.calls.get()).isEqualTo(2);
    assertThat(g.cancelledFutures.get()).isEqualTo(2); // each in-flight request was cancelled
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void cancelFreesARunBlockedOnAGenerator() throws Exception {
    Hanging g = new Hanging(1); // the initial population comes back, round 0's children never do
    Blocked b = startBlocked(g);
    b.run().cancel();
    b.thread().join(10_000);
    assertThat(b.thread().isAlive()).isFalse();
    assertThat(b.thrown().get()).isInstanceOf(CancellationException.class).hasMessageContaining("hanging");
    assertThat(g.cancelledFutures.get()).isEqualTo(1);
  }

  /** A run started on its own thread, blocked on a generator that stopped answering. */
  private record Blocked(AugPE run, Thread thread, AtomicReference<Throwable> thrown) {}

  /** Starts an Aug-PE run on {@code g} and returns once its second generation call is made. */
  private static Blocked startBlocked(Hanging g) throws InterruptedException {
    AugPE run = augpe(g, Fixtures.embedder()).build();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        run.run();
      } catch (Throwable e) {
        thrown.set(e);
      }
    });
    t.start();
    while (g.calls.get() < 2) {
      Thread.sleep(10);
    }
    return new Blocked(run, t, thrown);
  }

  // fault: provider fails with a retryable error (rate limit, 5xx)
  // holds: the batch is tried again, up to `providerRetries` times
  @Test
  void aRetryableFailureIsTriedAgain() {
    AtomicInteger calls = new AtomicInteger();
    TextGenerator flaky = new TextGenerator() {
      final TextGenerator inner = Fixtures.generator();

      @Override
      public String name() {
        return "flaky";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
        if (calls.incrementAndGet() == 1) {
          return CompletableFuture.failedFuture(new ProviderException.Retryable("429 rate limited"));
        }
        return inner.generateAsync(requests);
      }
    };
    assertThat(augpe(flaky, Fixtures.embedder()).build().run().dataset().size()).isEqualTo(8);
    assertThat(augpe(flaky, Fixtures.embedder()).providerRetries(0).build().run().dataset().size()).isEqualTo(8);
    calls.set(0);
    assertThatThrownBy(() -> augpe(flaky, Fixtures.embedder()).providerRetries(0).build().run())
        .isInstanceOf(ProviderException.Retryable.class)
        .hasMessage("429 rate limited");
  }

  /** An embedder whose vectors have the wrong dimension: the message says so, on private text too. */
  // fault: embedder returns the wrong dimension or too few rows, on private text too
  // holds: the exact fault is reported (`ProviderFault`: provider, input position, dimensions or counts), not withheld; no text is quoted
  @Test
  void aWrongShapeIsReportedExactlyNotWithheld() {
    TextEmbedder wrong = new ForwardingEmbedder(Fixtures.embedder(), Locality.LOCAL, () -> 65);
    assertThatThrownBy(() -> augpe(Fixtures.generator(), wrong).build().run())
        .isInstanceOf(ProviderFault.class)
        .hasMessageContaining("returned a vector of dimension 64 for input 0 of its batch; it declares dimension 65")
        .hasMessageNotContaining("withheld");
  }

  @Test
  void tooFewRowsAreReportedExactlyNotWithheld() {
    // the embedder returning too few rows, on private text too: the count, never the text
    TextEmbedder short1 = new ForwardingEmbedder(Fixtures.embedder(), Locality.LOCAL, null) {
      @Override
      public float[][] embed(List<String> texts) {
        float[][] all = super.embed(texts);
        return java.util.Arrays.copyOf(all, Math.max(0, all.length - 1));
      }
    };
    assertThatThrownBy(() -> augpe(Fixtures.generator(), short1).build().run())
        .isInstanceOf(ProviderFault.class)
        .hasMessageMatching("provider '.*' returned \\d+ results for \\d+ inputs")
        .hasMessageNotContaining("withheld");
  }

  @Test
  void interruptingTheRunningThreadFreesARunBlockedOnAGenerator() throws Exception {
    // The issue: neither cancel() nor Thread.interrupt() freed a run whose generator never answers
    // (cancel() is checked above).
    Hanging g = new Hanging(1);
    Blocked b = startBlocked(g);
    b.thread().interrupt();
    b.thread().join(10_000);
    assertThat(b.thread().isAlive()).isFalse();
    assertThat(b.thrown().get()).isNotNull();
    assertThat(g.cancelledFutures.get()).isEqualTo(1);
  }

  @Test
  void timeoutsAndRetriesAreValidated() {
    assertThatThrownBy(() -> AugPE.builder().generationTimeout(Duration.ZERO))
        .hasMessage("generationTimeout must be positive, got generationTimeout=PT0S");
    assertThatThrownBy(() -> AugPE.builder().embeddingTimeout(Duration.ofSeconds(-1)))
        .hasMessage("embeddingTimeout must be positive, got embeddingTimeout=PT-1S");
    assertThatThrownBy(() -> AugPE.builder().providerRetries(-1))
        .hasMessage("providerRetries must be >= 0, got providerRetries=-1");
  }

  /**
   * The defaults a user writing a provider meets: a generator whose future never completes stops
   * the run after 3 attempts of 10 minutes (before: 3 of 30), an embedder after 3 of 2 minutes.
   */
  @Test
  void theDefaultTimeoutsAreTenMinutesForGenerationTwoForEmbeddingAndTwoRetries() {
    EvolutionSettings s = augpe(Fixtures.generator(), Fixtures.embedder()).build().config().settings();
    assertThat(s.generationTimeout()).isEqualTo(Duration.ofMinutes(10)).isEqualTo(EvolutionBuilder.DEFAULT_GENERATION_TIMEOUT);
    assertThat(s.embeddingTimeout()).isEqualTo(Duration.ofMinutes(2)).isEqualTo(EvolutionBuilder.DEFAULT_EMBEDDING_TIMEOUT);
    assertThat(s.providerRetries()).isEqualTo(2).isEqualTo(EvolutionBuilder.DEFAULT_PROVIDER_RETRIES);
  }

  /** A null element in a generator's results: a ProviderFault naming it, not a bare NPE in the engine. */
  @Test
  void aNullResultIsAProviderFaultNamingItsPosition() {
    TextGenerator holey = new TextGenerator() {
      final TextGenerator inner = Fixtures.generator();

      @Override
      public String name() {
        return "holey";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
        return inner.generateAsync(requests).thenApply(rs -> {
          List<GenerationResult> out = new ArrayList<>(rs);
          out.set(3, null);
          return out;
        });
      }
    };
    assertThatThrownBy(() -> augpe(holey, Fixtures.embedder()).build().run())
        .isInstanceOf(ProviderFault.class)
        .hasMessage("provider 'holey' returned null for input 3 of its batch");
  }

  /** normalized() is checked: on the private records (first embedded) and on the candidates. */
  @Test
  void anEmbedderThatClaimsUnitVectorsAndReturnsOthersStopsTheRun() {
    TextEmbedder doubled = new ForwardingEmbedder(Fixtures.embedder(), Locality.LOCAL, null) {
      @Override
      public float[][] embed(List<String> texts) {
        float[][] rows = super.embed(texts);
        for (float[] r : rows) {
          for (int c = 0; c < r.length; c++) {
            r[c] *= 2;
          }
        }
        return rows;
      }
    };
    assertThatThrownBy(() -> augpe(Fixtures.generator(), doubled).build().run())
        .isInstanceOf(ProviderFault.class)
        .hasMessageContaining("declares normalized() but returned a vector whose L2 norm is not 1")
        .hasMessageNotContaining("withheld");
  }

  /** The builder's own switch is what the refusal names (the guard's method is for PrivateTexts). */
  @Test
  void aRemoteEmbedderIsRefusedNamingTheBuildersSwitch() {
    TextEmbedder remote = new ForwardingEmbedder(Fixtures.embedder(), Locality.REMOTE, null);
    assertThatThrownBy(() -> augpe(Fixtures.generator(), remote).build().run())
        .hasMessageContaining("is REMOTE")
        .hasMessageContaining("allowRemoteEmbedding() on the run's builder");
    assertThat(augpe(Fixtures.generator(), remote).allowRemoteEmbedding().build().run().dataset().size()).isEqualTo(8);
  }
}
