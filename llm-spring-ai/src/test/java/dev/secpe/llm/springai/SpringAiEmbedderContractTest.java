package dev.secpe.llm.springai;

import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.testkit.TextEmbedderContract;
import net.jqwik.api.lifecycle.AfterContainer;

/** The embedder contract on the adapter around the stub embedding model, in batches of 3. */
class SpringAiEmbedderContractTest implements TextEmbedderContract {

  private static final SpringAiTextEmbedder EMB =
      SpringAiTextEmbedder.builder(new StubModels.Embeddings()).batchSize(3).build();

  @AfterContainer
  static void stop() {
    EMB.close();
  }

  @Override
  public TextEmbedder embedder() {
    return EMB;
  }
}
