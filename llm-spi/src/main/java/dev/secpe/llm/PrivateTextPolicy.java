package dev.secpe.llm;

import java.util.Objects;

/**
 * Whether private records may be sent to a {@link Locality#REMOTE} embedder. Private evolution
 * embeds the private records to vote; with a remote embedder those records leave the process, so
 * the default is {@link #LOCAL_ONLY} and allowing it is an explicit, visible choice of the caller.
 * (Generators never see private records, whatever their locality.)
 */
public enum PrivateTextPolicy {
  /** Private records go only to {@link Locality#LOCAL} embedders (the default). */
  LOCAL_ONLY,
  /** The caller explicitly allows private records to go to {@link Locality#REMOTE} embedders. */
  ALLOW_REMOTE;

  /**
   * Checks that {@code embedder} may receive private records under this policy.
   *
   * @throws IllegalStateException naming the embedder when it is REMOTE and the policy is {@link
   *     #LOCAL_ONLY}
   */
  public void checkEmbedder(TextEmbedder embedder) {
    Objects.requireNonNull(embedder, "embedder");
    if (this == LOCAL_ONLY && embedder.locality() != Locality.LOCAL) {
      throw new IllegalStateException("embedder '" + embedder.name() + "' is " + embedder.locality()
          + ": embedding private records with it would send them over the network; use a LOCAL"
          + " embedder or allow it explicitly with PrivateTextPolicy.ALLOW_REMOTE");
    }
  }
}
