package dev.secpe.llm.openai;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;

/**
 * Provider "openai" of {@link OpenAiTextGenerator}; settings as in {@link
 * OpenAiConfig#fromProviderConfig(ProviderConfig, String)}, default model "gpt-4o-mini".
 */
public final class OpenAiGeneratorProvider implements TextGeneratorProvider {

  /** For {@link java.util.ServiceLoader}. */
  public OpenAiGeneratorProvider() {}

  @Override
  public String name() {
    return "openai";
  }

  @Override
  public Locality locality() {
    return Locality.REMOTE;
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    return OpenAiTextGenerator.create(OpenAiConfig.fromProviderConfig(config, "gpt-4o-mini"));
  }

  @Override
  public java.util.Optional<java.util.Set<String>> options() {
    return java.util.Optional.of(OpenAiConfig.OPTIONS);
  }
}
