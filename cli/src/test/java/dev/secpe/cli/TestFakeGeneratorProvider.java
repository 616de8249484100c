package dev.secpe.cli;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;
import dev.secpe.llm.testkit.FakeTextGenerator;

/**
 * The testkit's deterministic generator as {@code --generator test-fake-generator}: a generator
 * plugged in through the SPI, which learns from no public text (as a foundation model would not).
 */
public final class TestFakeGeneratorProvider implements TextGeneratorProvider {

  /** For {@link java.util.ServiceLoader}. */
  public TestFakeGeneratorProvider() {}

  @Override
  public String name() {
    return "test-fake-generator";
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    return FakeTextGenerator.builder().name(name()).build();
  }

  @Override
  public java.util.Optional<java.util.Set<String>> options() {
    return java.util.Optional.of(java.util.Set.of()); // it reads none
  }
}
