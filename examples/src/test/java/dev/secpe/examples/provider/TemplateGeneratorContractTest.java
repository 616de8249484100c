package dev.secpe.examples.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import dev.secpe.llm.testkit.TextGeneratorContract;
import org.junit.jupiter.api.Test;

/** A provider author's test: the published contract, plus discovery through META-INF/services. */
// The javadoc overview shows the region below.
// @start region="contract"
class TemplateGeneratorContractTest implements TextGeneratorContract {

  private final TextGenerator generator = new TemplateGenerator();

  @Override
  public TextGenerator generator() {
    return generator;
  }

  @Override
  public boolean deterministicUnderSeed() {
    return true;
  }

  @Test
  void isDiscoveredByName() {
    TextGenerator g = Providers.installed().createGenerator("template", ProviderConfig.empty());
    assertThat(g).isInstanceOf(TemplateGenerator.class);
  }
}
// @end region="contract"
