package dev.secpe.llm.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Blocking model calls as cancellable futures, for adapters of client libraries whose calls block
 * (LangChain4j's and Spring AI's models): each call runs on an executor of the caller's choosing,
 * is interrupted when its future is cancelled or its timeout passes, and fails with the exception
 * the adapter makes of its failure. Combine with {@link ConcurrencyLimiter#mapAsync} to bound the
 * calls in flight.
 */
final class BlockingCalls {

  private BlockingCalls() {}

  /**
   * Runs {@code body} on {@code executor}. The future completes with its value; or exceptionally
   * with {@code onFailure} of what it threw; or, after {@code timeout}, with {@code onTimeout}'s
   * exception; or, when the executor refuses the task, with {@code onRejected}'s. Any completion
   * other than the value (a timeout, the caller's cancellation) interrupts the body, or keeps it
   * from starting if it has not.
   *
   * @param timeout positive
   */
  static <R> CompletableFuture<R> start(
      Executor executor,
      Callable<R> body,
      Duration timeout,
      Supplier<? extends RuntimeException> onTimeout,
      Function<Throwable, ? extends RuntimeException> onFailure,
      Supplier<? extends RuntimeException> onRejected) {
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(body, "body");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got timeout=" + timeout);
    }
    CompletableFuture<R> out = run(executor, body, onFailure, e -> onRejected.get());
    // orTimeout's timer is cancelled when the timer future completes, so a call that answers in
    // time leaves nothing scheduled.
    CompletableFuture<Void> timer =
        new CompletableFuture<Void>().orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
    timer.whenComplete(
        (v, e) -> {
          if (e instanceof TimeoutException) {
            out.completeExceptionally(onTimeout.get());
          }
        });
    out.whenComplete((r, e) -> timer.complete(null));
    return out;
  }

  /**
   * Runs {@code body} on {@code executor}: the future completes with its value, or exceptionally
   * with {@code onFailure} of what it threw, or with {@code onRejected} of the executor's refusal.
   * Any completion other than the value (the caller's cancellation, a failure set from outside)
   * interrupts the body, or keeps it from starting if it has not.
   */
  static <R> CompletableFuture<R> run(
      Executor executor,
      Callable<R> body,
      Function<Throwable, ? extends Throwable> onFailure,
      Function<RejectedExecutionException, ? extends Throwable> onRejected) {
    CompletableFuture<R> out = new CompletableFuture<>();
    FutureTask<R> task =
        new FutureTask<>(body) {
          @Override
          protected void done() {
            if (isCancelled()) {
              out.cancel(false);
              return;
            }
            try {
              out.complete(get());
            } catch (ExecutionException e) {
              out.completeExceptionally(onFailure.apply(e.getCause()));
            } catch (InterruptedException | CancellationException e) {
              out.cancel(false);
            }
          }
        };
    out.whenComplete(
        (r, e) -> {
          if (e != null) {
            task.cancel(true);
          }
        });
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      out.completeExceptionally(onRejected.apply(e));
    }
    return out;
  }

  /** A fixed pool of {@code threads} daemon threads named {@code name-N}. */
  static ExecutorService daemonPool(int threads, String name) {
    Objects.requireNonNull(name, "name");
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Stops a pool made by {@link #daemonPool}: running calls are interrupted and queued ones
   * cancelled, so the futures of {@link #start} complete.
   */
  static void stop(ExecutorService pool) {
    for (Runnable r : pool.shutdownNow()) {
      if (r instanceof Future<?> f) {
        f.cancel(false);
      }
    }
  }
}
