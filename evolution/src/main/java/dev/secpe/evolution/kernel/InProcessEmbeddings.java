package dev.secpe.evolution.kernel;

import dev.secpe.core.EmbeddingMatrix;

/**
 * A {@link dev.secpe.evolution.PrivateStore} that holds the private embeddings in this JVM (the
 * in-memory store): DPGA and CTCL, which read private text and embeddings in process, run only on
 * such a store.
 */
public interface InProcessEmbeddings {

  /**
   * The unit-norm embeddings of the private records, in record order.
   *
   * @throws IllegalStateException if the records were not embedded yet
   */
  EmbeddingMatrix unit();
}
