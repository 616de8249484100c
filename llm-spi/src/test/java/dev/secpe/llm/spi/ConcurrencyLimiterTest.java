package dev.secpe.llm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ConcurrencyLimiterTest {

  /** Completes each call after a random delay; tracks the most calls in flight at once. */
  @Property(tries = 30)
  void resultsKeepItemOrderAndInFlightNeverExceedsTheLimit(
      @ForAll @IntRange(min = 1, max = 6) int limit,
      @ForAll @IntRange(min = 0, max = 40) int n,
      @ForAll long seed) throws Exception {
    ConcurrencyLimiter limiter = new ConcurrencyLimiter(limit);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger max = new AtomicInteger();
    SplittableRandom rng = new SplittableRandom(seed);
    List<Long> delays = IntStream.range(0, n).mapToObj(i -> (long) rng.nextInt(3)).toList();
    List<Integer> items = IntStream.range(0, n).boxed().toList();
    List<Integer> out = limiter.mapAsync(items, i -> {
      max.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      return CompletableFuture.supplyAsync(() -> {
        inFlight.decrementAndGet();
        return i * 10;
      }, CompletableFuture.delayedExecutor(delays.get(i), TimeUnit.MILLISECONDS));
    }).get(10, TimeUnit.SECONDS);
    assertThat(out).isEqualTo(items.stream().map(i -> i * 10).toList());
    assertThat(max.get()).isLessThanOrEqualTo(limit);
    assertThat(limiter.inFlight()).isZero();
  }

  @Test
  void theLimitIsSharedByConcurrentBatches() throws Exception {
    ConcurrencyLimiter limiter = new ConcurrencyLimiter(3);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger max = new AtomicInteger();
    List<CompletableFuture<List<Integer>>> batches = new ArrayList<>();
    for (int b = 0; b < 5; b++) {
      batches.add(limiter.mapAsync(List.of(1, 2, 3, 4), i -> {
        max.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        return CompletableFuture.supplyAsync(() -> {
          inFlight.decrementAndGet();
          return i;
        }, CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS));
      }));
    }
    for (CompletableFuture<List<Integer>> f : batches) {
      assertThat(f.get(10, TimeUnit.SECONDS)).containsExactly(1, 2, 3, 4);
    }
    assertThat(max.get()).isEqualTo(3);
  }

  @Test
  void aFailureFailsTheBatchWithTheCauseAndCancelsTheRest() {
    ConcurrencyLimiter limiter = new ConcurrencyLimiter(2);
    List<CompletableFuture<Integer>> started = new ArrayList<>();
    CompletableFuture<List<Integer>> f = limiter.mapAsync(List.of(0, 1, 2, 3), i -> {
      CompletableFuture<Integer> c = new CompletableFuture<>();
      synchronized (started) {
        started.add(c);
      }
      return c;
    });
    assertThat(started).hasSize(2);
    started.get(0).completeExceptionally(new IllegalStateException("boom"));
    assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    assertThat(started.get(1)).isCancelled();
    assertThat(started).as("queued items never start").hasSize(2);
    assertThat(limiter.inFlight()).isZero();
  }

  @Test
  void cancellingTheBatchCancelsCallsInFlightAndQueuedOnesNeverStart() {
    ConcurrencyLimiter limiter = new ConcurrencyLimiter(2);
    List<CompletableFuture<Integer>> started = new ArrayList<>();
    CompletableFuture<List<Integer>> f = limiter.mapAsync(List.of(0, 1, 2, 3, 4), i -> {
      CompletableFuture<Integer> c = new CompletableFuture<>();
      started.add(c);
      return c;
    });
    f.cancel(true);
    assertThat(started).hasSize(2).allMatch(CompletableFuture::isCancelled);
    assertThat(limiter.inFlight()).isZero();
    // the limiter still works
    assertThat(limiter.mapAsync(List.of(7), CompletableFuture::completedFuture).join()).containsExactly(7);
  }

  @Test
  void blockingCallsAreInterruptedOnCancel() throws Exception {
    ConcurrencyLimiter limiter = new ConcurrencyLimiter(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CountDownLatch running = new CountDownLatch(2);
    CountDownLatch interrupted = new CountDownLatch(2);
    try {
      CompletableFuture<List<Integer>> f = limiter.mapBlocking(List.of(1, 2, 3), i -> {
        running.countDown();
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          interrupted.countDown();
        }
        return i;
      }, pool);
      assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
      f.cancel(true);
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(f::join).isInstanceOf(CancellationException.class);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void synchronousCallsDoNotGrowTheStack() {
    ConcurrencyLimiter limiter = new ConcurrencyLimiter(1);
    List<Integer> items = IntStream.range(0, 100_000).boxed().toList();
    assertThat(limiter.mapAsync(items, CompletableFuture::completedFuture).join()).hasSize(100_000);
  }

  @Test
  void badLimitNamesTheValue() {
    assertThatThrownBy(() -> new ConcurrencyLimiter(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxInFlight=0");
  }
}
