package dev.secpe.llm.springai;

import dev.secpe.llm.ProviderException;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/** Spring AI's failures, redacted. */
final class Failures {

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

  private Failures() {}

  /**
   * A {@link ProviderException} for a model's failure that names the exception's type and nothing
   * else: the message of a model's exception may quote the request (for an embedder, private
   * text), so neither it nor the exception itself is kept. Retryable: Spring AI's {@code
   * TransientAiException}, Spring Web's server errors, 429s and I/O failures, and any {@link
   * IOException} or {@link TimeoutException} among the causes; the rest is permanent.
   */
  static ProviderException redact(String what, Throwable failure) {
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
}
