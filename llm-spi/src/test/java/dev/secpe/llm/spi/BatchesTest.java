package dev.secpe.llm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BatchesTest {

  @Test
  void splitsInOrderWithASmallerLastBatch() {
    assertThat(Batches.of(List.of("a", "b", "c", "d", "e"), 2))
        .containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
    assertThat(Batches.of(List.of("a", "b"), 2)).containsExactly(List.of("a", "b"));
    assertThat(Batches.of(List.<String>of(), 3)).isEmpty();
    assertThatThrownBy(() -> Batches.of(List.of("a"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batch size must be >= 1, got size=0");
  }

  @Test
  void joinsTheRowsInOrderAndRefusesAWrongCount() {
    float[] a = {1};
    float[] b = {2};
    float[] c = {3};
    List<float[][]> parts = List.of(new float[][] {a, b}, new float[][] {c});
    float[][] joined = Batches.join(parts, 3);
    assertThat(joined.length).isEqualTo(3);
    assertThat(joined[0]).isSameAs(a);
    assertThat(joined[1]).isSameAs(b);
    assertThat(joined[2]).isSameAs(c);
    List<float[][]> two = List.<float[][]>of(new float[][] {a, b});
    assertThatThrownBy(() -> Batches.join(two, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the batches hold 2 rows, not total=3");
    assertThatThrownBy(() -> Batches.join(two, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the batches hold more than total=1 rows");
  }

  private static final IllegalStateException INTERRUPTED = new IllegalStateException("interrupted");

  private static <T> T await(CompletableFuture<T> f) {
    return Batches.await(f, () -> INTERRUPTED,
        e -> new IllegalStateException("failed: " + e.getClass().getSimpleName()));
  }

  @Test
  void awaitReturnsTheValueRethrowsUncheckedFailuresAsIsAndHandsCheckedOnesToOnFailure() {
    assertThat(await(CompletableFuture.completedFuture("v"))).isEqualTo("v");
    IllegalArgumentException unchecked = new IllegalArgumentException("x");
    assertThatThrownBy(() -> await(CompletableFuture.failedFuture(unchecked))).isSameAs(unchecked);
    // A checked failure's message may quote the private text: onFailure decides what is said.
    CompletableFuture<String> checked = CompletableFuture.failedFuture(new IOException("alice has hiv"));
    assertThatThrownBy(() -> await(checked))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("failed: IOException");
    CompletableFuture<String> cancelled = new CompletableFuture<>();
    cancelled.cancel(true);
    assertThatThrownBy(() -> await(cancelled)).isSameAs(INTERRUPTED);
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void anInterruptWhileWaitingCancelsTheFutureKeepsTheFlagAndThrowsOnInterrupts() throws Exception {
    CompletableFuture<String> never = new CompletableFuture<>();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicBoolean flagAfter = new AtomicBoolean();
    Thread waiter = new Thread(() -> {
      try {
        await(never);
      } catch (RuntimeException e) {
        thrown.set(e);
      }
      flagAfter.set(Thread.currentThread().isInterrupted());
    });
    waiter.start();
    // An interrupt that came before the wait would fail it the same way; waiting first tests the wait.
    while (waiter.isAlive() && waiter.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    waiter.interrupt();
    waiter.join(5_000);
    assertThat(waiter.isAlive()).isFalse();
    assertThat(thrown.get()).isSameAs(INTERRUPTED);
    assertThat(flagAfter.get()).as("the interrupt status is kept").isTrue();
    assertThat(never.isCancelled()).as("the calls behind the future are cancelled").isTrue();
  }
}
