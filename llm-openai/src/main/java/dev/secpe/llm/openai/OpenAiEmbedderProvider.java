package dev.secpe.llm.openai;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;

/**
 * Provider "openai" of {@link OpenAiTextEmbedder} ({@link Locality#REMOTE}); settings as in {@link
 * OpenAiConfig#fromProviderConfig(ProviderConfig, String)}, default model
 * "text-embedding-3-small".
 */
public final class OpenAiEmbedderProvider implements TextEmbedderProvider {

  /** For {@link java.util.ServiceLoader}. */
  public OpenAiEmbedderProvider() {}

  @Override
  public String name() {
    return "openai";
  }

  @Override
  public Locality locality() {
    return Locality.REMOTE;
  }

  @Override
  public TextEmbedder create(ProviderConfig config) {
    return OpenAiTextEmbedder.create(OpenAiConfig.fromProviderConfig(config, "text-embedding-3-small"));
  }

  @Override
  public java.util.Optional<java.util.Set<String>> options() {
    return java.util.Optional.of(OpenAiConfig.OPTIONS);
  }
}
