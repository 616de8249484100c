package dev.secpe.core;

import dev.secpe.llm.TextEmbedder;
import java.util.List;
import java.util.Objects;

/**
 * Embedding of public and synthetic texts, with the same output checks as {@link PrivateTexts}
 * (row count, dimension, finite values) but no locality guard: these texts may go anywhere.
 */
public final class PublicTexts {

  private PublicTexts() {}

  /**
   * Embeds {@code texts} in batches of {@code batchSize}, row i being text i.
   *
   * @throws IllegalStateException if the embedder returns the wrong number of rows, a wrong
   *     dimension or a non-finite value
   */
  public static EmbeddingMatrix embed(TextEmbedder embedder, List<String> texts, int batchSize) {
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(texts, "texts");
    return PrivateTexts.embedStrings(embedder, List.copyOf(texts), batchSize, false);
  }

  /** Embeds {@code texts} in batches of {@link PrivateTexts#DEFAULT_BATCH_SIZE}. */
  public static EmbeddingMatrix embed(TextEmbedder embedder, List<String> texts) {
    return embed(embedder, texts, PrivateTexts.DEFAULT_BATCH_SIZE);
  }
}
