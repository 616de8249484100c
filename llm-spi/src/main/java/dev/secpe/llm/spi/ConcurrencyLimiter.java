package dev.secpe.llm.spi;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs per-item calls with at most {@code maxInFlight} in flight, shared by every batch submitted
 * to the same limiter, for generator and embedder implementations.
 *
 * <p>A batch's future completes with one result per item, in item order, whatever the order in
 * which the calls finished. Items start in submission order (first come, first served across
 * batches). When one call fails, the batch fails with that call's exception (unwrapped from
 * {@link CompletionException}) and its outstanding calls are cancelled; when the caller cancels
 * the batch's future, calls in flight are cancelled and queued ones never start.
 *
 * <p>The limiter owns no threads: asynchronous calls ({@link #mapAsync}) bring their own, and
 * blocking calls ({@link #mapBlocking}) run on the executor the caller passes. Thread-safe.
 */
public final class ConcurrencyLimiter {

  private final int maxInFlight;
  private final Object lock = new Object();
  private final ArrayDeque<Slot> waiting = new ArrayDeque<>();
  private int available;
  private boolean draining;

  /**
   * A limiter.
   *
   * @param maxInFlight the most calls in flight at once, >= 1
   */
  public ConcurrencyLimiter(int maxInFlight) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be >= 1, got maxInFlight=" + maxInFlight);
    }
    this.maxInFlight = maxInFlight;
    this.available = maxInFlight;
  }

  /** The most calls in flight at once. */
  public int maxInFlight() {
    return maxInFlight;
  }

  /** Calls in flight now (a snapshot). */
  public int inFlight() {
    synchronized (lock) {
      return maxInFlight - available;
    }
  }

  /**
   * Starts {@code call} for every item, at most {@link #maxInFlight()} at a time across all batches.
   * {@code call} must not block; cancelling the stage it returns (via {@code
   * toCompletableFuture().cancel}) should abort the underlying work.
   *
   * @return results in item order; cancel it to cancel outstanding calls
   */
  public <T, R> CompletableFuture<List<R>> mapAsync(
      List<T> items, Function<? super T, ? extends CompletionStage<R>> call) {
    Objects.requireNonNull(call, "call");
    List<T> copy = List.copyOf(items);
    Batch<T, R> batch = new Batch<>(copy, call);
    if (copy.isEmpty()) {
      batch.out.complete(List.of());
      return batch.out;
    }
    synchronized (lock) {
      for (int i = 0; i < copy.size(); i++) {
        waiting.add(new Slot(batch, i));
      }
    }
    drain();
    return batch.out;
  }

  /**
   * Runs the blocking {@code call} for every item on {@code executor}, at most {@link
   * #maxInFlight()} at a time across all batches. Cancelling the returned future interrupts the
   * calls in flight.
   *
   * @return results in item order; cancel it to cancel outstanding calls
   */
  public <T, R> CompletableFuture<List<R>> mapBlocking(
      List<T> items, Function<? super T, ? extends R> call, Executor executor) {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(executor, "executor");
    return mapAsync(items, item -> BlockingCalls.run(executor, () -> call.apply(item), e -> e, e -> e));
  }

  private void release() {
    synchronized (lock) {
      available++;
    }
    drain();
  }

  /** Starts queued slots while permits are free; reentrant calls return at once (no recursion). */
  private void drain() {
    synchronized (lock) {
      if (draining) {
        return;
      }
      draining = true;
    }
    boolean normal = false;
    try {
      while (true) {
        Slot s;
        synchronized (lock) {
          if (available == 0 || waiting.isEmpty()) {
            draining = false;
            normal = true;
            return;
          }
          s = waiting.poll();
          available--;
        }
        if (!s.batch.start(s.index, this)) {
          synchronized (lock) {
            available++;
          }
        }
      }
    } finally {
      if (!normal) {
        synchronized (lock) {
          draining = false;
        }
      }
    }
  }

  private record Slot(Batch<?, ?> batch, int index) {}

  private static final class Batch<T, R> {
    final List<T> items;
    final Function<? super T, ? extends CompletionStage<R>> call;
    final Object[] results;
    final AtomicInteger remaining;
    final Map<Integer, CompletableFuture<R>> inFlight = new ConcurrentHashMap<>();
    final CompletableFuture<List<R>> out = new CompletableFuture<>();

    Batch(List<T> items, Function<? super T, ? extends CompletionStage<R>> call) {
      this.items = items;
      this.call = call;
      this.results = new Object[items.size()];
      this.remaining = new AtomicInteger(items.size());
      out.whenComplete(
          (r, e) -> {
            if (e != null) {
              inFlight.values().forEach(f -> f.cancel(true));
            }
          });
    }

    /** Starts item {@code i}; false (permit unused) when the batch already ended. */
    boolean start(int i, ConcurrencyLimiter limiter) {
      if (out.isDone()) {
        return false;
      }
      CompletableFuture<R> f;
      try {
        f = Objects.requireNonNull(call.apply(items.get(i)), "call returned null").toCompletableFuture();
      } catch (RuntimeException | Error e) {
        f = CompletableFuture.failedFuture(e);
      }
      inFlight.put(i, f);
      if (out.isDone()) { // cancelled while starting
        f.cancel(true);
      }
      f.whenComplete(
          (r, e) -> {
            inFlight.remove(i);
            if (e != null) {
              // Fail the batch first, so freeing the permit does not start its queued items.
              out.completeExceptionally(unwrap(e));
              limiter.release();
              return;
            }
            results[i] = r;
            // Free this item's permit before counting it done: whoever counts the last item then
            // comes after every other item's release too, so a caller that sees the batch done
            // sees all its permits back (counting first let a non-last item's release lag).
            limiter.release();
            if (remaining.decrementAndGet() == 0) {
              @SuppressWarnings("unchecked")
              List<R> list = (List<R>) Arrays.asList(results.clone());
              out.complete(Collections.unmodifiableList(list));
            }
          });
      return true;
    }
  }

  private static Throwable unwrap(Throwable e) {
    while (e instanceof CompletionException && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}
