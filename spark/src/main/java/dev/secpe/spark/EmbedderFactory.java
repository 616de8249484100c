package dev.secpe.spark;

import dev.secpe.llm.TextEmbedder;
import java.io.Serializable;

/**
 * Builds the embedder each Spark executor embeds its private records with: one per executor JVM
 * and store, made on first use and kept for the store's life. Serializable: a lambda such as
 * {@code () -> new MiniLmEmbedder()} or {@code () -> TextEmbedders.named("all-minilm-l6-v2")} is
 * shipped to the executors. It must build the same model as the run's embedder (same name and
 * dimension; the store checks both).
 */
@FunctionalInterface
public interface EmbedderFactory extends Serializable {

  /** A new embedder (called once per executor JVM and store). */
  TextEmbedder create();
}
