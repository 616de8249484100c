package dev.secpe.llm.langchain4j;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RetriableException;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import java.io.IOException;
import java.time.Duration;
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
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The blocking model calls of both adapters: each runs on the caller's executor, is interrupted when
 * its future is cancelled or its timeout passes, and fails with a redacted {@link
 * ProviderException}.
 */
final class Calls {

  private Calls() {}

  /**
   * Runs {@code body} on {@code executor}. The future completes with its value; or exceptionally
   * with {@link #redact} of what it threw; or, after {@code timeout}, with a {@link
   * ProviderException.Retryable} saying so. Any completion other than the value (a timeout, the
   * caller's cancellation) interrupts the body, or keeps it from starting if it has not.
   */
  static <R> CompletableFuture<R> start(
      Executor executor, Callable<R> body, Duration timeout, String what, String provider) {
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
              out.completeExceptionally(redact(what, e.getCause()));
            } catch (InterruptedException | CancellationException e) {
              out.cancel(false);
            }
          }
        };
    // orTimeout's timer is cancelled when the timer future completes, so a call that answers in
    // time leaves nothing scheduled.
    CompletableFuture<Void> timer =
        new CompletableFuture<Void>().orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
    timer.whenComplete(
        (v, e) -> {
          if (e instanceof TimeoutException) {
            out.completeExceptionally(new ProviderException.Retryable(
                what + " did not answer within " + timeout + "; the call was cancelled", null));
          }
        });
    out.whenComplete(
        (r, e) -> {
          timer.complete(null);
          if (e != null) {
            task.cancel(true);
          }
        });
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      out.completeExceptionally(ProviderFault.closed(provider));
    }
    return out;
  }

  /**
   * A {@link ProviderException} for a model's failure that names the exception's type and, when
   * one is in its causes, the HTTP status, and nothing else: the message of a model's exception may
   * quote the request (for an embedder, private text), so neither it nor the exception itself is
   * kept. Retryable: LangChain4j's {@link RetriableException}s (rate limits, timeouts, server
   * errors), HTTP 408, 409, 429 and 5xx, and I/O failures; the rest is permanent. SecPE's own
   * exceptions pass through.
   */
  static RuntimeException redact(String what, Throwable failure) {
    if (failure instanceof ProviderException || failure instanceof ProviderFault) {
      return (RuntimeException) failure;
    }
    Integer status = null;
    Boolean retryable = null;
    boolean io = false;
    int depth = 0;
    for (Throwable c = failure; c != null && depth < 16; c = c.getCause(), depth++) {
      if (status == null && c instanceof HttpException h) {
        status = h.statusCode();
      }
      if (retryable == null && c instanceof RetriableException) {
        retryable = true;
      } else if (retryable == null && c instanceof NonRetriableException) {
        retryable = false;
      }
      io |= c instanceof IOException || c instanceof TimeoutException;
    }
    if (retryable == null) {
      retryable = status != null
          ? status == 408 || status == 409 || status == 429 || status >= 500
          : io;
    }
    String message = what + " failed: " + failure.getClass().getName()
        + (status != null ? " (HTTP " + status + ")" : "");
    return retryable
        ? new ProviderException.Retryable(message, null)
        : new ProviderException.Permanent(message, null);
  }

  /** A fixed pool of daemon threads for an adapter the caller gave no executor. */
  static ExecutorService ownPool(int threads, String provider) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, "secpe-" + provider + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    return Executors.newFixedThreadPool(threads, factory);
  }

  /** Stops an adapter's own pool: running calls are interrupted, queued ones cancelled. */
  static void stop(ExecutorService pool) {
    for (Runnable r : pool.shutdownNow()) {
      if (r instanceof Future<?> f) {
        f.cancel(false);
      }
    }
  }

  /** Checks a positive duration. */
  static Duration positive(Duration d, String name) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + name + "=" + d);
    }
    return d;
  }

  /** Refuses a builder option set a second time. */
  static void once(@Nullable Object current, String option) {
    if (current != null) {
      throw new IllegalStateException(option + " was already set; each option may be set once");
    }
  }

  /** Checks a count >= 1. */
  static int atLeastOne(int n, String name) {
    if (n < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, got " + name + "=" + n);
    }
    return n;
  }
}
