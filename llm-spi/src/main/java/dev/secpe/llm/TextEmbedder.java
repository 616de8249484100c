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

  /**
   * Whether returned vectors have unit L2 norm. When true the library checks it (within 1e-3) and
   * stops with a {@link ProviderFault} on a vector that does not.
   */
  boolean normalized();

  /** Where the model runs. */
  Locality locality();

  /**
   * Embeds each text; row i is the vector of {@code texts.get(i)}: {@link #dimension()} finite
   * values. An exception thrown while the texts are private loses its message (and its causes'
   * messages) on the way to the caller, because a message may quote the text; its type and stack
   * trace are kept.
   */
  float[][] embed(List<String> texts);

  /** Releases resources. */
  @Override
  default void close() {}
}
