package dev.secpe.llm;

/**
 * A provider failed. {@link Retryable} failures (rate limits, 5xx, timeouts) may succeed if
 * tried again; {@link Permanent} ones (bad request, authentication) will not. Messages never
 * include request bodies.
 */
public abstract sealed class ProviderException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ProviderException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A failure that may succeed on retry. */
  public static final class Retryable extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public Retryable(String message, Throwable cause) {
      super(message, cause);
    }

    /** Creates the exception without a cause. */
    public Retryable(String message) {
      super(message, null);
    }
  }

  /** A failure that will not succeed on retry. */
  public static final class Permanent extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public Permanent(String message, Throwable cause) {
      super(message, cause);
    }

    /** Creates the exception without a cause. */
    public Permanent(String message) {
      super(message, null);
    }
  }
}
