package dev.secpe.llm.testkit;

import dev.secpe.llm.TextEmbedder;

class FakeTextEmbedderContractTest implements TextEmbedderContract {
  private final TextEmbedder embedder = FakeTextEmbedder.builder().dimension(16).build();

  @Override
  public TextEmbedder embedder() {
    return embedder;
  }
}
