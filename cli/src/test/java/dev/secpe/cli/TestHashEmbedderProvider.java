package dev.secpe.cli;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;
import dev.secpe.llm.testkit.FakeTextEmbedder;

/** The testkit's deterministic hash embedder as {@code --embedder test-hash-embedder}: runs in milliseconds. */
public final class TestHashEmbedderProvider implements TextEmbedderProvider {

  /** For {@link java.util.ServiceLoader}. */
  public TestHashEmbedderProvider() {}

  @Override
  public String name() {
    return "test-hash-embedder";
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextEmbedder create(ProviderConfig config) {
    return FakeTextEmbedder.builder().name(name()).dimension(32).build();
  }

  @Override
  public java.util.Optional<java.util.Set<String>> options() {
    return java.util.Optional.of(java.util.Set.of()); // it reads none
  }
}
