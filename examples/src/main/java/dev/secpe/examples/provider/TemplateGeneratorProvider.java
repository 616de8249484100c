package dev.secpe.examples.provider;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;

/**
 * Registers {@link TemplateGenerator} as provider "template" through {@code META-INF/services}.
 *
 * <p>{@link #name()} and {@link #locality()} answer what the generator answers, without making
 * one (a provider must stay cheap to construct and to list); their shape repeats the generator's
 * because a provider and its generator each implement their own interface.
 */
public final class TemplateGeneratorProvider implements TextGeneratorProvider {

  /** ServiceLoader needs a public no-argument constructor; keep it cheap. */
  public TemplateGeneratorProvider() {}

  @Override
  public String name() {
    return TemplateGenerator.NAME;
  }

  @Override
  public Locality locality() {
    return TemplateGenerator.LOCALITY;
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    return new TemplateGenerator();
  }
}
