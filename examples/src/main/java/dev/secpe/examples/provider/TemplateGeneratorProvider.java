package dev.secpe.examples.provider;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;

/** Registers {@link TemplateGenerator} as provider "template" through {@code META-INF/services}. */
public final class TemplateGeneratorProvider implements TextGeneratorProvider {

  /** ServiceLoader needs a public no-argument constructor; keep it cheap. */
  public TemplateGeneratorProvider() {}

  @Override
  public String name() {
    return "template";
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    return new TemplateGenerator();
  }
}
