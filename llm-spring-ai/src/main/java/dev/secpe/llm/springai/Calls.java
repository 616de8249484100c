package dev.secpe.llm.springai;

import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.spi.BlockingCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/** The blocking model calls of both adapters ({@link BlockingCalls}, with Spring AI's failures redacted) and the builders' checks. */
final class Calls {

  /**
   * Spring's exceptions for failures worth trying again, matched by class name (Spring AI's
   * retry module and Spring Web are the application's, not this adapter's, dependencies).
   */
  private static final Set<String> RETRYABLE = Set.of(
      "org.springframework.ai.retry.TransientAiException",
      "org.springframework.web.client.HttpServerErrorException",
      "org.springframework.web.client.HttpClientErrorException$TooManyRequests",
      "org.springframework.web.client.ResourceAccessException",
      "org.springframework.web.reactive.function.client.WebClientResponseException$TooManyRequests",
      "org.springframework.web.reactive.function.client.WebClientRequestException");

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
   * A {@link ProviderException} for a model's failure that names the exception's type and nothing
   * else: the message of a model's exception may quote the request (for an embedder, private
   * text), so neither it nor the exception itself is kept. Retryable: Spring AI's {@code
   * TransientAiException}, Spring Web's server errors, 429s and I/O failures, and any {@link
   * IOException} or {@link TimeoutException} among the causes; the rest is permanent. SecPE's own
   * exceptions pass through.
   */
  static RuntimeException redact(String what, Throwable failure) {
    if (failure instanceof ProviderException || failure instanceof ProviderFault) {
      return (RuntimeException) failure;
    }
    boolean retryable = false;
    int depth = 0;
    for (Throwable c = failure; c != null && depth < 16 && !retryable; c = c.getCause(), depth++) {
      retryable = c instanceof IOException || c instanceof TimeoutException || isRetryable(c.getClass());
    }
    String message = what + " failed: " + failure.getClass().getName();
    return retryable
        ? new ProviderException.Retryable(message, null)
        : new ProviderException.Permanent(message, null);
  }

  private static boolean isRetryable(@Nullable Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getSuperclass()) {
      if (RETRYABLE.contains(t.getName())) {
        return true;
      }
    }
    return false;
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
