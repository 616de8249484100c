package com.example.consumer;

import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.testkit.TextEmbedderContract;

/** The testkit's embedder contract on the user's own embedder: what a provider author writes. */
class HashingEmbedderContractTest implements TextEmbedderContract {
  private final TextEmbedder embedder = new HashingEmbedder();

  @Override
  public TextEmbedder embedder() {
    return embedder;
  }
}
