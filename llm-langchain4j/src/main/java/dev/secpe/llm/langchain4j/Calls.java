package dev.secpe.llm.langchain4j;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RetriableException;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.spi.BlockingCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The blocking model calls of both adapters ({@link BlockingCalls}, with LangChain4j's failures
 * redacted) and the builders' checks.
 */
final class Calls {

  private Calls() {}

  /**
   * Runs {@code body} on {@code executor} ({@link BlockingCalls#start}): a failure becomes {@link
   * #redact}'s exception, a timeout a {@link ProviderException.Retryable} saying so, a refused task
   * {@link ProviderFault#closed}.
   */
  static <R> CompletableFuture<R> start(
      Executor executor, Callable<R> body, Duration timeout, String what, String provider) {
    return BlockingCalls.start(executor, body, timeout,
        () -> new ProviderException.Retryable(
            what + " did not answer within " + timeout + "; the call was cancelled", null),
        e -> redact(what, e),
        () -> ProviderFault.closed(provider));
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
