package dev.secpe.llm.spi;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import java.util.Optional;
import java.util.Set;

/**
 * A light factory for a {@link TextGenerator}, discovered with {@link java.util.ServiceLoader}
 * (declare it in {@code module-info} and in {@code META-INF/services}). Constructing the
 * provider must be cheap; the heavy work happens in {@link #create(ProviderConfig)}.
 */
public interface TextGeneratorProvider {

  /** Unique name users select the provider by, e.g. "openai". */
  String name();

  /** Where generators of this provider run. */
  Locality locality();

  /** Creates a generator; invalid configuration is an {@link IllegalArgumentException}. */
  TextGenerator create(ProviderConfig config);

  /**
   * The {@link ProviderConfig} keys this provider reads, so that a caller can refuse a key it
   * would ignore (a misspelt option is otherwise silently dropped); empty when the provider does
   * not say, and then every key is passed on unchecked.
   */
  default Optional<Set<String>> options() {
    return Optional.empty();
  }
}
