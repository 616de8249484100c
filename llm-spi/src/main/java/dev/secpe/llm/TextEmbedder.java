package dev.secpe.llm;

import java.util.List;

/**
 * A sentence embedder. A {@link Locality#REMOTE} embedder receives private text only when the
 * caller explicitly allows it (the evolution builders refuse otherwise).
 *
 * <p>Implementations are thread-safe.
 */
public interface TextEmbedder extends AutoCloseable {

  /** A short name, e.g. "all-minilm-l6-v2". */
  String name();

  /** Dimension of every vector this embedder returns. */
  int dimension();

  /** Whether returned vectors have unit L2 norm. */
  boolean normalized();

  /** Where the model runs. */
  Locality locality();

  /** Embeds each text; row i is the vector of {@code texts.get(i)}. */
  float[][] embed(List<String> texts);

  /** Releases resources. */
  @Override
  default void close() {}
}
