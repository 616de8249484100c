package dev.secpe.llm.openai;

import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.testkit.TextEmbedderContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import net.jqwik.api.lifecycle.AfterContainer;

/** The embedder contract against the loopback server. */
class OpenAiEmbedderContractTest implements TextEmbedderContract {

  private static final LoopbackOpenAi SERVER;
  private static final OpenAiTextEmbedder EMBEDDER;

  static {
    try {
      SERVER = LoopbackOpenAi.healthy();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    EMBEDDER = OpenAiTextEmbedder.create(OpenAiConfig.builder()
        .endpoint(Endpoint.of(SERVER.baseUrl()))
        .embeddingBatchSize(2)
        .requestTimeout(Duration.ofSeconds(10))
        .build());
  }

  @AfterContainer
  static void stop() {
    EMBEDDER.close();
    SERVER.close();
  }

  @Override
  public TextEmbedder embedder() {
    return EMBEDDER;
  }
}
