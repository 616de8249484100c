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
public final class OpenAiEmbedderProvider extends OpenAiProvider implements TextEmbedderProvider {

  /** For {@link java.util.ServiceLoader}. */
  public OpenAiEmbedderProvider() {}

  @Override
  public TextEmbedder create(ProviderConfig config) {
    return OpenAiTextEmbedder.create(OpenAiConfig.fromProviderConfig(config, "text-embedding-3-small"));
  }
}
