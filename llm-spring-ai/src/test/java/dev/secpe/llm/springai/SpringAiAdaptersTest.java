package dev.secpe.llm.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

class SpringAiAdaptersTest {

  private static GenerationRequest request(String user, GenerationParams params) {
    return new GenerationRequest(List.of(ChatMessage.system("be brief"), ChatMessage.user(user)),
        new GenerationTask.Random(null, List.of(), 0), params);
  }

  @Test
  void theMessagesAndSamplingParametersReachTheModel() {
    StubModels.Chat chat = new StubModels.Chat();
    GenerationParams params = new GenerationParams(0.7, 0.9, 3, List.of("END"), OptionalLong.of(42));
    try (SpringAiTextGenerator gen = SpringAiTextGenerator.of(chat)) {
      List<GenerationResult> r = gen.generate(List.of(request("one two three four five", params)));
      assertThat(r.get(0).finishReason()).isEqualTo(GenerationResult.FinishReason.LENGTH);
      assertThat(r.get(0).text().split(" ")).hasSize(3);
      assertThat(r.get(0).promptTokens()).isEqualTo(5);
      assertThat(r.get(0).completionTokens()).isEqualTo(3);
    }
    Prompt p = chat.prompts.get(0);
    assertThat(p.getInstructions().get(0)).isInstanceOf(SystemMessage.class);
    assertThat(p.getInstructions().get(1)).isInstanceOf(UserMessage.class);
    ChatOptions o = p.getOptions();
    assertThat(o.getTemperature()).isEqualTo(0.7);
    assertThat(o.getTopP()).isEqualTo(0.9);
    assertThat(o.getMaxTokens()).isEqualTo(3);
    assertThat(o.getStopSequences()).containsExactly("END");
  }

  @Test
  void errorsLoseTheirMessageAndAreClassified() {
    ChatModel failing = new ChatModel() {
      @Override
      public ChatResponse call(Prompt prompt) {
        throw new UncheckedIOException("cannot send " + prompt.getContents(), new java.io.IOException("reset"));
      }
    };
    try (SpringAiTextGenerator gen = SpringAiTextGenerator.builder(failing).name("vendor").build()) {
      assertThatThrownBy(() -> gen.generate(List.of(request("PROMPT-TEXT", GenerationParams.defaults()))))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessage("chat model 'vendor' failed: java.io.UncheckedIOException")
          .hasNoCause();
    }
    ChatModel refusing = new ChatModel() {
      @Override
      public ChatResponse call(Prompt prompt) {
        throw new IllegalArgumentException("bad request: " + prompt.getContents());
      }
    };
    try (SpringAiTextGenerator gen = SpringAiTextGenerator.of(refusing)) {
      assertThatThrownBy(() -> gen.generate(List.of(request("PROMPT-TEXT", GenerationParams.defaults()))))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessageNotContaining("PROMPT-TEXT");
    }
  }

  @Test
  void aTimeoutInterruptsTheCall() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    ChatModel stuck = new ChatModel() {
      @Override
      public ChatResponse call(Prompt prompt) {
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          interrupted.countDown();
        }
        throw new IllegalStateException("interrupted");
      }
    };
    try (SpringAiTextGenerator gen = SpringAiTextGenerator.builder(stuck).timeout(Duration.ofMillis(200)).build()) {
      assertThatThrownBy(() -> gen.generate(List.of(request("u", GenerationParams.defaults()))))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessageContaining("did not answer within PT0.2S");
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void localityIsRemoteUnlessDeclared() {
    try (SpringAiTextGenerator gen = SpringAiTextGenerator.of(new StubModels.Chat());
        SpringAiTextEmbedder emb = SpringAiTextEmbedder.builder(new StubModels.Embeddings()).locality(Locality.LOCAL).build()) {
      assertThat(gen.locality()).isEqualTo(Locality.REMOTE);
      assertThat(gen.name()).isEqualTo("spring-ai");
      assertThat(emb.locality()).isEqualTo(Locality.LOCAL);
    }
  }

  @Test
  void embeddingsComeInBatchesNormalisedAndInOrder() {
    StubModels.Embeddings model = new StubModels.Embeddings();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      texts.add("text number " + i);
    }
    try (SpringAiTextEmbedder emb = SpringAiTextEmbedder.builder(model).batchSize(3).build()) {
      float[][] v = emb.embed(texts);
      assertThat(model.batches).extracting(List::size).containsExactlyInAnyOrder(3, 3, 1);
      for (int i = 0; i < texts.size(); i++) {
        float[] expected = model.vectors.vector(texts.get(i)); // the fake's vectors are unit vectors
        for (int j = 0; j < expected.length; j++) {
          assertThat((double) v[i][j]).isCloseTo(expected[j], within(1e-6));
        }
      }
    }
  }

  @Test
  void anEmbeddingFailureLosesItsMessageAndAWrongCountIsAFault() {
    StubModels.Embeddings throwing = new StubModels.Embeddings() {
      @Override
      public org.springframework.ai.embedding.EmbeddingResponse call(org.springframework.ai.embedding.EmbeddingRequest r) {
        throw new IllegalStateException("cannot embed " + r.getInstructions());
      }
    };
    try (SpringAiTextEmbedder emb = SpringAiTextEmbedder.of(throwing)) {
      assertThatThrownBy(() -> emb.embed(List.of("PRIVATE: 555-0100")))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessage("embedding model 'spring-ai' failed: java.lang.IllegalStateException")
          .hasNoCause();
    }
    StubModels.Embeddings dropping = new StubModels.Embeddings() {
      @Override
      public List<float[]> embed(List<String> texts) {
        return List.of(new float[16]);
      }
    };
    try (SpringAiTextEmbedder emb = SpringAiTextEmbedder.of(dropping)) {
      assertThatThrownBy(() -> emb.embed(List.of("a", "b")))
          .isInstanceOf(ProviderFault.class)
          .hasMessage("provider 'spring-ai' returned 1 results for 2 inputs");
    }
  }

  @Test
  void theBuildersCheckEachValueAtOnceAndKeepTheLast() {
    SpringAiTextGenerator.Builder g = SpringAiTextGenerator.builder(new StubModels.Chat());
    assertThatThrownBy(() -> g.maxConcurrency(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxConcurrency must be >= 1, got maxConcurrency=0");
    g.timeout(Duration.ofSeconds(2));
    g.timeout(Duration.ofSeconds(1)); // set twice: the last value wins, as in every builder of the library
    assertThat(g.toString()).contains("timeout=PT1S").doesNotContain("PT2S");
    SpringAiTextEmbedder.Builder e = SpringAiTextEmbedder.builder(new StubModels.Embeddings());
    assertThatThrownBy(() -> e.batchSize(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("batchSize must be >= 1, got batchSize=0");
  }
}
