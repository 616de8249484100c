package dev.secpe.llm.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import dev.secpe.llm.GenerationParams;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import java.time.Duration;

/** The LangChain4j models the tests run here. */
final class Models {

  private Models() {}

  /** LangChain4j's OpenAI client pointed at {@code server}, without retries. */
  static ChatModel openAi(StubOpenAiServer server) {
    return OpenAiChatModel.builder()
        .baseUrl(server.baseUrl())
        .apiKey("test-key")
        .modelName("stub-model")
        .maxRetries(0)
        .timeout(Duration.ofSeconds(20))
        .build();
  }

  /** The standard mapping plus the seed, as OpenAI's own parameter. */
  static ChatRequestParameters withOpenAiSeed(GenerationParams p) {
    OpenAiChatRequestParameters.Builder b =
        OpenAiChatRequestParameters.builder().overrideWith(LangChain4jTextGenerator.standardParameters(p));
    p.seed().ifPresent(s -> b.seed(Long.hashCode(s)));
    return b.build();
  }

  private static EmbeddingModel miniLm;

  /** LangChain4j's in-process all-MiniLM-L6-v2 (one per test JVM: it loads an ONNX session). */
  static synchronized EmbeddingModel miniLm() {
    if (miniLm == null) {
      miniLm = new AllMiniLmL6V2EmbeddingModel();
    }
    return miniLm;
  }
}
