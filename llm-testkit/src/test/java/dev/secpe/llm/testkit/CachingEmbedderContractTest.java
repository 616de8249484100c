package dev.secpe.llm.testkit;

import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.cache.CachingEmbedder;

/** The cache decorator meets the embedder contract too (small LRU so eviction happens). */
class CachingEmbedderContractTest implements TextEmbedderContract {
  private final TextEmbedder embedder =
      CachingEmbedder.inMemory(FakeTextEmbedder.builder().dimension(24).build(), 7);

  @Override
  public TextEmbedder embedder() {
    return embedder;
  }
}
