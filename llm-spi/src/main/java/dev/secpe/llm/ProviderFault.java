package dev.secpe.llm;

import java.time.Duration;

/**
 * A provider answered with output of the wrong shape or content, or did not answer in time. Its
 * message is built by the factories below from the provider's name, counts, positions and
 * durations only, never from a text, so the library's privacy gates (which withhold the message of
 * any other exception thrown while private text is processed, because it may quote the text) let
 * it through: the user sees exactly what is wrong.
 */
public final class ProviderFault extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private ProviderFault(String message) {
    super(message);
  }

  /** The provider returned {@code got} results (rows, texts) for {@code expected} inputs. */
  public static ProviderFault rowCount(String provider, int got, int expected) {
    return new ProviderFault(
        "provider '" + provider + "' returned " + got + " results for " + expected + " inputs");
  }

  /** Result {@code index} of a batch is a vector of dimension {@code got}, not {@code expected}. */
  public static ProviderFault dimension(String provider, int index, int got, int expected) {
    return new ProviderFault(
        "embedder '" + provider + "' returned a vector of dimension " + got + " for input " + index
            + " of its batch; it declares dimension " + expected);
  }

  /**
   * Vector {@code index} does not have unit L2 norm (within {@code tolerance}) although the
   * embedder's {@link TextEmbedder#normalized()} says it does. The norm itself is not named: it is a
   * function of the text, which may be private.
   */
  public static ProviderFault notUnitNorm(String provider, int index, double tolerance) {
    return new ProviderFault(
        "embedder '" + provider + "' declares normalized() but returned a vector whose L2 norm is not 1"
            + " (within " + tolerance + ") for text " + index + "; return unit vectors or declare"
            + " normalized() false");
  }

  /** Result {@code index} of a batch is missing (null). */
  public static ProviderFault missing(String provider, int index) {
    return new ProviderFault("provider '" + provider + "' returned null for input " + index + " of its batch");
  }

  /** The provider was closed (for example by a shutdown on SIGTERM) before or during the call. */
  public static ProviderFault closed(String provider) {
    return new ProviderFault("provider '" + provider + "' is closed");
  }

  /**
   * The provider did not answer a batch of {@code size} inputs within {@code timeout}, {@code
   * attempts} times.
   */
  public static ProviderFault timedOut(String provider, int size, Duration timeout, int attempts) {
    return new ProviderFault(
        "provider '" + provider + "' did not answer a batch of " + size + " inputs within " + timeout
            + " (" + attempts + (attempts == 1 ? " attempt" : " attempts") + "); raise the timeout"
            + " (generationTimeout / embeddingTimeout) or check the service");
  }
}
