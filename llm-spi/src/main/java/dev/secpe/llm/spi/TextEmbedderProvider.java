package dev.secpe.llm.spi;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.Optional;
import java.util.Set;

/**
 * A light factory for a {@link TextEmbedder}, discovered with {@link java.util.ServiceLoader}
 * (declare it in {@code module-info} and in {@code META-INF/services}).
 */
public interface TextEmbedderProvider {

  /** Unique name users select the provider by, e.g. "all-minilm-l6-v2". */
  String name();

  /** Where embedders of this provider run. */
  Locality locality();

  /** Creates an embedder; invalid configuration is an {@link IllegalArgumentException}. */
  TextEmbedder create(ProviderConfig config);

  /**
   * The {@link ProviderConfig} keys this provider reads, so that a caller can refuse a key it
   * would ignore (a misspelt option is otherwise silently dropped); empty when the provider does
   * not say, and then every key is passed on unchecked.
   */
  default Optional<Set<String>> options() {
    return Optional.empty();
  }
}
