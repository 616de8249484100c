package dev.secpe.llm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BlockingCallsTest {

  private static final Duration LONG = Duration.ofMinutes(1);

  /** A body that blocks until interrupted and says so. */
  private static String blockUntilInterrupted(CountDownLatch started, CountDownLatch interrupted) {
    started.countDown();
    try {
      Thread.sleep(60_000);
    } catch (InterruptedException e) {
      interrupted.countDown();
    }
    return "late";
  }

  @Test
  void aValueAndAFailureComeThroughTheirOwnWays() throws Exception {
    ExecutorService pool = BlockingCalls.daemonPool(1, "test");
    try {
      assertThat(BlockingCalls.start(pool, () -> "v", LONG, IllegalStateException::new,
          e -> new IllegalStateException("failed: " + e.getClass().getSimpleName()), IllegalStateException::new)
          .get(5, TimeUnit.SECONDS)).isEqualTo("v");
      CompletableFuture<String> f = BlockingCalls.start(pool, () -> {
        throw new java.io.IOException("quoting text");
      }, LONG, IllegalStateException::new, e -> new IllegalStateException("failed: " + e.getClass().getSimpleName()),
          IllegalStateException::new);
      assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
          .cause().hasMessage("failed: IOException");
    } finally {
      BlockingCalls.stop(pool);
    }
  }

  @Test
  void aTimeoutInterruptsTheBodyAndFailsWithTheGivenException() throws Exception {
    ExecutorService pool = BlockingCalls.daemonPool(1, "test");
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    try {
      CompletableFuture<String> f = BlockingCalls.start(pool, () -> blockUntilInterrupted(started, interrupted),
          Duration.ofMillis(100), () -> new IllegalStateException("too slow"), IllegalStateException::new,
          IllegalStateException::new);
      assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).cause().hasMessage("too slow");
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    } finally {
      BlockingCalls.stop(pool);
    }
  }

  @Test
  void cancellingInterruptsARunningBodyAndKeepsAQueuedOneFromStarting() throws Exception {
    ExecutorService pool = BlockingCalls.daemonPool(1, "test");
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    AtomicBoolean queuedRan = new AtomicBoolean();
    try {
      CompletableFuture<String> running = BlockingCalls.start(pool, () -> blockUntilInterrupted(started, interrupted),
          LONG, IllegalStateException::new, IllegalStateException::new, IllegalStateException::new);
      CompletableFuture<String> queued = BlockingCalls.start(pool, () -> {
        queuedRan.set(true);
        return "q";
      }, LONG, IllegalStateException::new, IllegalStateException::new, IllegalStateException::new);
      assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
      queued.cancel(true);
      running.cancel(true);
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<String> after = BlockingCalls.start(pool, () -> "after", LONG,
          IllegalStateException::new, IllegalStateException::new, IllegalStateException::new);
      assertThat(after.get(5, TimeUnit.SECONDS)).isEqualTo("after");
      assertThat(queuedRan).isFalse();
    } finally {
      BlockingCalls.stop(pool);
    }
  }

  @Test
  void aStoppedPoolRefusesWithTheGivenExceptionAndTimeoutsMustBePositive() {
    ExecutorService pool = BlockingCalls.daemonPool(1, "test");
    BlockingCalls.stop(pool);
    CompletableFuture<String> f = BlockingCalls.start(pool, () -> "x", LONG, IllegalStateException::new,
        IllegalStateException::new, () -> new IllegalStateException("closed"));
    assertThatThrownBy(f::join).cause().hasMessage("closed");
    assertThatThrownBy(() -> BlockingCalls.start(pool, () -> "x", Duration.ZERO, IllegalStateException::new,
        IllegalStateException::new, IllegalStateException::new))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must be positive, got timeout=PT0S");
  }
}
