package dev.secpe.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The blocking {@link TextGenerator#generate}: what it returns, rethrows, and does on an interrupt. */
class TextGeneratorTest {

  /** The stub ignores its requests: what is checked is how generate waits on the future. */
  private static final List<GenerationRequest> ONE = List.of();

  @Test
  void returnsTheFuturesResults() {
    GenerationResult r = new GenerationResult("a text", GenerationResult.FinishReason.STOP, 0, 0);
    assertThat(answering(CompletableFuture.completedFuture(List.of(r))).generate(ONE)).containsExactly(r);
  }

  @Test
  void rethrowsAProviderFailureAsItIs() {
    ProviderException.Permanent failure = new ProviderException.Permanent("quota exhausted", null);
    assertThatThrownBy(() -> answering(CompletableFuture.failedFuture(failure)).generate(ONE)).isSameAs(failure);
  }

  @Test
  void wrapsACheckedFailureInACompletionException() {
    IOException failure = new IOException("connection reset");
    assertThatThrownBy(() -> answering(CompletableFuture.failedFuture(failure)).generate(ONE))
        .isInstanceOf(CompletionException.class)
        .hasCause(failure);
  }

  @Test
  void anInterruptCancelsTheRequestsAndKeepsTheInterruptStatus() throws Exception {
    CompletableFuture<List<GenerationResult>> never = new CompletableFuture<>();
    CountDownLatch waiting = new CountDownLatch(1);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicBoolean interruptKept = new AtomicBoolean();
    TextGenerator g = answering(never);
    Thread caller =
        new Thread(
            () -> {
              waiting.countDown();
              try {
                g.generate(ONE);
              } catch (RuntimeException e) {
                thrown.set(e);
                interruptKept.set(Thread.currentThread().isInterrupted());
              }
            });
    caller.setDaemon(true); // a generate that ignores the interrupt must not keep the JVM alive
    caller.start();
    assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
    // Interrupt until the caller has left generate (it may not have reached the wait yet), for at
    // most ten seconds.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (caller.isAlive() && System.nanoTime() < deadline) {
      caller.interrupt();
      caller.join(50);
    }
    assertThat(caller.isAlive()).as("generate still waits after an interrupt").isFalse();
    assertThat(thrown.get())
        .isInstanceOf(ProviderException.Retryable.class)
        .hasMessage("interrupted while generating");
    assertThat(interruptKept).isTrue();
    assertThat(never).isCancelled();
  }

  private static TextGenerator answering(CompletableFuture<List<GenerationResult>> future) {
    return new TextGenerator() {
      @Override
      public String name() {
        return "stub";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
        return future;
      }
    };
  }
}
