package dev.secpe.core;

import dev.secpe.llm.Locality;

/**
 * Whether private text may leave this process. The default, {@link #localOnly()}, refuses every
 * {@link Locality#REMOTE} embedder and secret detector; each permission must be granted
 * explicitly by a caller who accepts that the remote service sees the private text.
 *
 * @param allowRemoteEmbedding whether private text may be sent to a remote embedder
 * @param allowRemoteSecretDetection whether private text may be sent to a remote secret detector
 *     (e.g. an external PII service)
 */
public record PrivacyGuard(boolean allowRemoteEmbedding, boolean allowRemoteSecretDetection) {

  private static final PrivacyGuard LOCAL_ONLY = new PrivacyGuard(false, false);

  /** Refuses every remote service. The default. */
  public static PrivacyGuard localOnly() {
    return LOCAL_ONLY;
  }

  /** A copy that also allows sending private text to a remote embedder. */
  public PrivacyGuard withRemoteEmbeddingAllowed() {
    return new PrivacyGuard(true, allowRemoteSecretDetection);
  }

  /** A copy that also allows sending private text to a remote secret detector. */
  public PrivacyGuard withRemoteSecretDetectionAllowed() {
    return new PrivacyGuard(allowRemoteEmbedding, true);
  }

  /**
   * Throws {@link IllegalStateException} if an embedder with this name and locality may not see
   * private text.
   */
  public void checkEmbedder(String name, Locality locality) {
    if (locality != Locality.LOCAL && !allowRemoteEmbedding) {
      throw new IllegalStateException(
          "embedder '"
              + name
              + "' is "
              + locality
              + ": private text would leave this process; use a LOCAL embedder or allow it"
              + " explicitly: allowRemoteEmbedding() on the run's builder (--allow-remote-embedding on"
              + " the command line; PrivacyGuard.withRemoteEmbeddingAllowed() when you call PrivateTexts"
              + " yourself)");
    }
  }

  /**
   * Throws {@link IllegalStateException} if a secret detector with this name and locality may not
   * see private text.
   */
  public void checkSecretDetector(String name, Locality locality) {
    if (locality != Locality.LOCAL && !allowRemoteSecretDetection) {
      throw new IllegalStateException(
          "secret detector '"
              + name
              + "' is "
              + locality
              + ": private text would leave this process; use a LOCAL detector or allow it"
              + " explicitly with PrivacyGuard.withRemoteSecretDetectionAllowed()");
    }
  }
}
