package dev.secpe.llm.openai;

import dev.secpe.llm.Locality;
import dev.secpe.llm.spi.ProviderConfig;
import java.util.Optional;
import java.util.Set;

/**
 * What the "openai" generator and embedder providers share, said once: the name, the locality
 * and the {@link ProviderConfig} keys they read ({@link OpenAiConfig#OPTIONS}).
 */
abstract class OpenAiProvider {

  /** The name of both providers and of what they create. */
  static final String NAME = "openai";

  OpenAiProvider() {}

  /** "openai". */
  public String name() {
    return NAME;
  }

  /** {@link Locality#REMOTE}. */
  public Locality locality() {
    return Locality.REMOTE;
  }

  /** {@link OpenAiConfig#OPTIONS}. */
  public Optional<Set<String>> options() {
    return Optional.of(OpenAiConfig.OPTIONS);
  }
}
