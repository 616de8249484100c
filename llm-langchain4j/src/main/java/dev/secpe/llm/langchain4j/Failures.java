package dev.secpe.llm.langchain4j;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RetriableException;
import dev.secpe.llm.ProviderException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** LangChain4j's failures, redacted. */
final class Failures {

  private Failures() {}

  /**
   * A {@link ProviderException} for a model's failure that names the exception's type and, when
   * one is in its causes, the HTTP status, and nothing else: the message of a model's exception may
   * quote the request (for an embedder, private text), so neither it nor the exception itself is
   * kept. Retryable: LangChain4j's {@link RetriableException}s (rate limits, timeouts, server
   * errors), HTTP 408, 409, 429 and 5xx, and I/O failures; the rest is permanent.
   */
  static ProviderException redact(String what, Throwable failure) {
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
}
