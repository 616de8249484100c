package dev.secpe.llm.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LangChain4jTextGeneratorTest {

  static StubOpenAiServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new StubOpenAiServer();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @BeforeEach
  void healthy() {
    server.failWith(0);
    server.bodies.clear();
  }

  private static GenerationRequest request(String system, String user, GenerationParams params) {
    return new GenerationRequest(
        List.of(ChatMessage.system(system), ChatMessage.user(user)),
        new GenerationTask.Random(null, List.of(), 0), params);
  }

  @Test
  void sendsTheMessagesAndMapsEverySamplingParameterButTheSeedByDefault() {
    GenerationParams params = new GenerationParams(0.7, 0.9, 5, List.of("\n\n", "END"), OptionalLong.of(42));
    try (LangChain4jTextGenerator gen = LangChain4jTextGenerator.of(Models.openAi(server))) {
      gen.generate(List.of(request("be brief", "one two three four five six seven", params)));
    }
    JsonNode body = server.bodies.get(0);
    assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
    assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("be brief");
    assertThat(body.path("messages").get(1).path("role").asText()).isEqualTo("user");
    assertThat(body.path("temperature").asDouble()).isEqualTo(0.7);
    assertThat(body.path("top_p").asDouble()).isEqualTo(0.9);
    int maxTokens = body.has("max_completion_tokens")
        ? body.path("max_completion_tokens").asInt() : body.path("max_tokens").asInt();
    assertThat(maxTokens).isEqualTo(5);
    assertThat(body.path("stop").toString()).isEqualTo("[\"\\n\\n\",\"END\"]");
    assertThat(body.has("seed")).as("LangChain4j has no provider-neutral seed").isFalse();
  }

  @Test
  void aParametersMappingCarriesTheSeed() {
    GenerationParams params = GenerationParams.defaults().withSeed(42);
    try (LangChain4jTextGenerator gen =
        LangChain4jTextGenerator.builder(Models.openAi(server)).parameters(Models::withOpenAiSeed).build()) {
      gen.generate(List.of(request("s", "a b c", params)));
    }
    assertThat(server.bodies.get(0).path("seed").asLong()).isEqualTo(42);
    assertThat(server.bodies.get(0).path("temperature").asDouble()).isEqualTo(1.2);
  }

  @Test
  void finishReasonAndTokenCountsComeFromTheResponse() {
    GenerationParams cut = new GenerationParams(1, 1, 3, List.of(), OptionalLong.empty());
    try (LangChain4jTextGenerator gen = LangChain4jTextGenerator.of(Models.openAi(server))) {
      List<GenerationResult> r = gen.generate(List.of(
          request("s", "one two three four five", cut),
          request("s", "one two", GenerationParams.defaults())));
      assertThat(r.get(0).finishReason()).isEqualTo(GenerationResult.FinishReason.LENGTH);
      assertThat(r.get(0).text().split(" ")).hasSize(3);
      assertThat(r.get(0).promptTokens()).isEqualTo(5);
      assertThat(r.get(0).completionTokens()).isEqualTo(3);
      assertThat(r.get(1).finishReason()).isEqualTo(GenerationResult.FinishReason.STOP);
      assertThat(r.get(1).text().split(" ")).containsExactlyInAnyOrder("one", "two");
    }
  }

  @Test
  void errorsAreRedactedAndClassified() {
    try (LangChain4jTextGenerator gen = LangChain4jTextGenerator.of(Models.openAi(server))) {
      server.failWith(429);
      assertThatThrownBy(() -> gen.generate(List.of(request("s", "SECRET-WORD-42 here", GenerationParams.defaults()))))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessageContaining("chat model 'langchain4j-open-ai' failed")
          .hasMessageNotContaining("SECRET-WORD-42")
          .hasNoCause();
      server.failWith(401);
      assertThatThrownBy(() -> gen.generate(List.of(request("s", "SECRET-WORD-42 here", GenerationParams.defaults()))))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessageNotContaining("SECRET-WORD-42")
          .hasNoCause();
    }
  }

  /** A model whose every call blocks until interrupted, counting calls and interruptions. */
  static final class BlockingModel implements ChatModel {
    final AtomicInteger calls = new AtomicInteger();
    final CountDownLatch interrupted = new CountDownLatch(1);
    final CountDownLatch started = new CountDownLatch(1);

    @Override
    public ChatResponse doChat(ChatRequest request) {
      calls.incrementAndGet();
      started.countDown();
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
        throw new IllegalStateException("interrupted", e);
      }
      throw new AssertionError("not interrupted");
    }
  }

  @Test
  void aTimeoutCancelsTheCallAndFailsRetryably() throws Exception {
    BlockingModel model = new BlockingModel();
    try (LangChain4jTextGenerator gen =
        LangChain4jTextGenerator.builder(model).timeout(Duration.ofMillis(200)).build()) {
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> gen.generate(List.of(request("s", "u", GenerationParams.defaults()))))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessageContaining("did not answer within PT0.2S");
      assertThat(model.interrupted.await(5, TimeUnit.SECONDS)).as("the call was interrupted").isTrue();
      assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(10));
    }
  }

  @Test
  void cancellingInterruptsTheCallInFlightAndStartsNoQueuedOne() throws Exception {
    BlockingModel model = new BlockingModel();
    try (LangChain4jTextGenerator gen = LangChain4jTextGenerator.builder(model).maxConcurrency(1).build()) {
      List<GenerationRequest> three = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        three.add(request("s", "u" + i, GenerationParams.defaults()));
      }
      CompletableFuture<List<GenerationResult>> f = gen.generateAsync(three);
      assertThat(model.started.await(5, TimeUnit.SECONDS)).isTrue();
      f.cancel(true);
      assertThat(model.interrupted.await(5, TimeUnit.SECONDS)).as("the call in flight was interrupted").isTrue();
      Thread.sleep(100);
      assertThat(model.calls.get()).as("queued calls never start").isEqualTo(1);
    }
  }

  @Test
  void runsOnTheCallersExecutorAndLeavesItOpen() {
    AtomicInteger tasks = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      LangChain4jTextGenerator gen = LangChain4jTextGenerator.builder(Models.openAi(server))
          .executor(r -> {
            tasks.incrementAndGet();
            pool.execute(r);
          })
          .build();
      assertThat(gen.generate(List.of(request("s", "a b", GenerationParams.defaults()),
          request("s", "c d", GenerationParams.defaults())))).hasSize(2);
      gen.close();
      assertThat(tasks.get()).isEqualTo(2);
      assertThat(pool.isShutdown()).isFalse();
      assertThatThrownBy(() -> gen.generate(List.of(request("s", "a", GenerationParams.defaults()))))
          .isInstanceOf(ProviderFault.class)
          .hasMessageContaining("is closed");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void localityIsRemoteUnlessDeclaredAndTheNameFollowsTheModelsProvider() {
    ChatModel openAi = Models.openAi(server);
    try (LangChain4jTextGenerator remote = LangChain4jTextGenerator.of(openAi);
        LangChain4jTextGenerator local =
            LangChain4jTextGenerator.builder(new BlockingModel()).locality(Locality.LOCAL).name("my-llama").build()) {
      assertThat(remote.locality()).isEqualTo(Locality.REMOTE);
      assertThat(remote.name()).isEqualTo("langchain4j-open-ai");
      assertThat(local.locality()).isEqualTo(Locality.LOCAL);
      assertThat(local.name()).isEqualTo("my-llama");
      assertThat(LangChain4jTextGenerator.of(new BlockingModel()).name()).isEqualTo("langchain4j");
    }
  }

  @Test
  void theBuilderChecksEachValueAtOnceAndEachOptionOnce() {
    LangChain4jTextGenerator.Builder b = LangChain4jTextGenerator.builder(new BlockingModel());
    assertThatThrownBy(() -> b.maxConcurrency(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxConcurrency must be >= 1, got maxConcurrency=0");
    assertThatThrownBy(() -> b.timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must be positive, got timeout=PT0S");
    assertThatThrownBy(() -> b.name(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
    b.maxConcurrency(3);
    b.maxConcurrency(2); // set twice: the last value wins, as in every builder of the library
    assertThat(b.toString()).contains("maxConcurrency=2").doesNotContain("timeout");
    assertThatThrownBy(() -> LangChain4jTextGenerator.builder(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void anUnknownRoleIsRefusedBeforeAnythingIsSent() {
    try (LangChain4jTextGenerator gen = LangChain4jTextGenerator.of(Models.openAi(server))) {
      GenerationRequest bad = new GenerationRequest(List.of(new ChatMessage("tool", "x")),
          new GenerationTask.Random(null, List.of(), 0), GenerationParams.defaults());
      assertThatThrownBy(() -> gen.generateAsync(List.of(bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("role must be \"system\", \"user\" or \"assistant\", got role=\"tool\"");
      assertThat(server.bodies).isEmpty();
    }
  }

  @Test
  void aFailedCallFailsTheBatchWithTheModelsFailure() {
    ChatModel failing = new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        throw new RuntimeException("quoting the prompt: " + request.messages());
      }
    };
    try (LangChain4jTextGenerator gen = LangChain4jTextGenerator.of(failing)) {
      CompletableFuture<List<GenerationResult>> f =
          gen.generateAsync(List.of(request("s", "PROMPT-TEXT", GenerationParams.defaults())));
      assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessage("chat model 'langchain4j' failed: java.lang.RuntimeException")
          .hasNoCause();
    }
  }
}
