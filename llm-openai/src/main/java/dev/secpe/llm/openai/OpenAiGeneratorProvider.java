package dev.secpe.llm.openai;

import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;

/**
 * Provider "openai" of {@link OpenAiTextGenerator}; settings as in {@link
 * OpenAiConfig#fromProviderConfig(ProviderConfig, String)}, default model "gpt-4o-mini".
 */
public final class OpenAiGeneratorProvider extends OpenAiProvider implements TextGeneratorProvider {

  /** For {@link java.util.ServiceLoader}. */
  public OpenAiGeneratorProvider() {}

  @Override
  public TextGenerator create(ProviderConfig config) {
    return OpenAiTextGenerator.create(OpenAiConfig.fromProviderConfig(config, "gpt-4o-mini"));
  }
}
