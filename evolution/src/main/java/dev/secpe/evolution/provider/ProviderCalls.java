package dev.secpe.evolution.provider;

import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One provider call (a batch) under the run's control: a timeout per attempt, retries after a
 * timeout or a {@link ProviderException.Retryable} failure, and cancellation that frees the run
 * at once ({@code cancel()} or interruption cancels the in-flight request).
 */
public final class ProviderCalls {

  /** How often a waiting run looks at its cancellation flag. */
  static final Duration POLL = Duration.ofMillis(50);

  private ProviderCalls() {}

  /**
   * The result of {@code start}'s future, tried up to {@code retries + 1} times.
   *
   * @throws ProviderFault if every attempt timed out
   * @throws CancellationException if the run was cancelled or the thread interrupted
   */
  public static <T> T call(
      String provider,
      int size,
      Duration timeout,
      int retries,
      AtomicBoolean cancelled,
      Supplier<? extends Future<T>> start) {
    int attempts = retries + 1;
    for (int attempt = 1; ; attempt++) {
      Future<T> f = start.get();
      long deadline = System.nanoTime() + timeout.toNanos();
      try {
        while (true) {
          if (cancelled.get() || Thread.currentThread().isInterrupted()) {
            f.cancel(true);
            throw new CancellationException(
                "run cancelled during a call to '" + provider + "'; the last checkpoint (if any) can be resumed");
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new TimeoutException();
          }
          try {
            return f.get(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS);
          } catch (TimeoutException poll) {
            // look at the flag again
          }
        }
      } catch (TimeoutException e) {
        f.cancel(true);
        if (attempt >= attempts) {
          throw ProviderFault.timedOut(provider, size, timeout, attempts);
        }
      } catch (InterruptedException e) {
        f.cancel(true);
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted during a call to '" + provider + "'");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof ProviderException.Retryable && attempt < attempts) {
          continue;
        }
        if (cause instanceof RuntimeException r) {
          throw r;
        }
        if (cause instanceof Error err) {
          throw err;
        }
        throw new IllegalStateException(
            "provider '" + provider + "' failed with " + (cause == null ? "no cause" : cause.getClass().getName()));
      } catch (CancellationException e) {
        if (cancelled.get()) {
          throw e;
        }
        throw new IllegalStateException("provider '" + provider + "' cancelled its own request");
      }
    }
  }
}
