package dev.secpe.llm.langchain4j;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.testkit.TextEmbedderContract;
import net.jqwik.api.lifecycle.AfterContainer;

/** The embedder contract on LangChain4j's in-process all-MiniLM-L6-v2, in batches of 3. */
class LangChain4jEmbedderContractTest implements TextEmbedderContract {

  private static final LangChain4jTextEmbedder EMBEDDER =
      LangChain4jTextEmbedder.builder(Models.miniLm()).locality(Locality.LOCAL).batchSize(3).build();

  @AfterContainer
  static void stop() {
    EMBEDDER.close();
  }

  @Override
  public TextEmbedder embedder() {
    return EMBEDDER;
  }
}
