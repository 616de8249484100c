package dev.secpe.llm.openai;

import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.BAD_REQUEST;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.MALFORMED;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.NONE;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.RATE_LIMIT_DATE;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.RATE_LIMIT_LONG;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.RATE_LIMIT_SECONDS;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.RESET;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.SERVER_ERROR;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.SLOW;
import static dev.secpe.llm.openai.LoopbackOpenAi.Fault.UNAUTHORIZED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.ProviderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OpenAiTextGeneratorTest {

  static final String SECRET_WORDS = "confidential-diagnosis-of-alice";

  static List<GenerationRequest> requests(int n) {
    List<GenerationRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new GenerationRequest(
          List.of(ChatMessage.system("sys"), ChatMessage.user("write req-" + i + " " + SECRET_WORDS)),
          new GenerationTask.Random(null, List.of(), 10),
          GenerationParams.defaults().withSeed(i)));
    }
    return out;
  }

  static OpenAiConfig.Builder fastConfig(LoopbackOpenAi server) {
    return OpenAiConfig.builder()
        .endpoint(Endpoint.of(server.baseUrl(), "sk-test-1"))
        .model("test-model")
        .maxConcurrency(8)
        .maxRetries(4)
        .initialBackoff(Duration.ofMillis(5))
        .maxBackoff(Duration.ofMillis(40))
        .requestTimeout(Duration.ofMillis(2000));
  }

  static void assertEchoesInOrder(List<GenerationResult> results, int n) {
    assertThat(results).hasSize(n);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      String text = results.get(i).text();
      assertThat(text).startsWith("echo req-" + i + " ");
      assertThat(seen.add(text)).as("no duplicated result").isTrue();
    }
  }

  @Test
  void healthyServerAnswersEveryRequestInOrder() throws Exception {
    try (LoopbackOpenAi server = LoopbackOpenAi.healthy();
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(fastConfig(server).build())) {
      List<GenerationResult> results = gen.generate(requests(30));
      assertEchoesInOrder(results, 30);
      assertThat(results.get(0).finishReason()).isEqualTo(GenerationResult.FinishReason.STOP);
      assertThat(results.get(0).promptTokens()).isEqualTo(10);
      OpenAiStats s = gen.stats();
      assertThat(s.calls()).isEqualTo(30);
      assertThat(s.succeeded()).isEqualTo(30);
      assertThat(s.httpRequests()).isEqualTo(30);
      assertThat(s.retries()).isZero();
      assertThat(s.promptTokens()).isEqualTo(300);
      assertThat(s.completionTokens()).isEqualTo(90);
      assertThat(server.authorizations).allMatch("Bearer sk-test-1"::equals);
      assertThat(server.paths).allMatch("/v1/chat/completions"::equals);
    }
  }

  @Test
  void everyInjectedFaultIsRetriedAndNoRequestIsLostOrDuplicated() throws Exception {
    // id i: fault chosen by i % 8 on the first attempt; i % 8 == 7 fails twice (500 then reset).
    LoopbackOpenAi.Script script = (id, attempt) -> {
      int i = Integer.parseInt(id.substring(4));
      if (attempt == 1) {
        return switch (i % 8) {
          case 1 -> RATE_LIMIT_SECONDS;
          case 2 -> SERVER_ERROR;
          case 3 -> SLOW;
          case 4 -> MALFORMED;
          case 5 -> RESET;
          case 6 -> RATE_LIMIT_DATE;
          case 7 -> SERVER_ERROR;
          default -> NONE;
        };
      }
      return attempt == 2 && i % 8 == 7 ? RESET : NONE;
    };
    int n = 40;
    try (LoopbackOpenAi server = new LoopbackOpenAi(script, Duration.ZERO, Duration.ofMillis(5000));
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(fastConfig(server).build())) {
      List<GenerationResult> results = gen.generate(requests(n));
      assertEchoesInOrder(results, n);
      int expectedRetries = 0;
      for (int i = 0; i < n; i++) {
        int expected = i % 8 == 0 ? 1 : i % 8 == 7 ? 3 : 2;
        assertThat(server.attemptsOf("req-" + i)).as("attempts of req-" + i).isEqualTo(expected);
        expectedRetries += expected - 1;
      }
      OpenAiStats s = gen.stats();
      assertThat(s.retries()).isEqualTo(expectedRetries);
      assertThat(s.httpRequests()).isEqualTo(n + expectedRetries);
      assertThat(s.rateLimited()).isEqualTo(10); // ids with i % 8 in {1, 6}
      assertThat(s.succeeded()).isEqualTo(n);
      assertThat(s.failed()).isZero();
    }
  }

  @Test
  void retryAfterIsHonoured() throws Exception {
    try (LoopbackOpenAi server = new LoopbackOpenAi(
            (id, a) -> a == 1 ? RATE_LIMIT_SECONDS : NONE, Duration.ZERO, Duration.ZERO);
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(fastConfig(server).build())) {
      long t0 = System.nanoTime();
      assertEchoesInOrder(gen.generate(requests(1)), 1);
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      // backoff alone is at most 40 ms; Retry-After: 1 forces a wait of at least one second
      assertThat(elapsedMs).isGreaterThanOrEqualTo(1000);
    }
  }

  @Test
  void permanentErrorsAreNotRetriedAndNeverQuoteTheRequest() throws Exception {
    for (LoopbackOpenAi.Fault fault : List.of(BAD_REQUEST, UNAUTHORIZED)) {
      try (LoopbackOpenAi server = new LoopbackOpenAi((id, a) -> fault, Duration.ZERO, Duration.ZERO);
          OpenAiTextGenerator gen = OpenAiTextGenerator.create(fastConfig(server).build())) {
        assertThatThrownBy(() -> gen.generate(requests(1)))
            .isInstanceOf(ProviderException.Permanent.class)
            .hasMessageContaining(fault == BAD_REQUEST ? "HTTP 400" : "HTTP 401")
            .hasMessageNotContaining(SECRET_WORDS)
            .hasMessageNotContaining("sk-test-1")
            .hasMessageNotContaining("req-0");
        assertThat(server.attemptsOf("req-0")).isEqualTo(1);
        assertThat(gen.stats().retries()).isZero();
        assertThat(gen.stats().failed()).isEqualTo(1);
      }
    }
  }

  @Test
  void persistentServerErrorsGiveUpAfterMaxRetriesAsRetryable() throws Exception {
    try (LoopbackOpenAi server = new LoopbackOpenAi((id, a) -> SERVER_ERROR, Duration.ZERO, Duration.ZERO);
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(fastConfig(server).maxRetries(3).build())) {
      assertThatThrownBy(() -> gen.generate(requests(1)))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessageContaining("HTTP 500")
          .hasMessageContaining("4 attempts")
          .hasMessageNotContaining(SECRET_WORDS);
      assertThat(server.attemptsOf("req-0")).isEqualTo(4);
    }
  }

  @Test
  void aRetryAfterBeyondTheLimitFailsAtOnce() throws Exception {
    try (LoopbackOpenAi server = new LoopbackOpenAi((id, a) -> RATE_LIMIT_LONG, Duration.ZERO, Duration.ZERO);
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(fastConfig(server).build())) {
      assertThatThrownBy(() -> gen.generate(requests(1)))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessageContaining("3600 s");
      assertThat(server.attemptsOf("req-0")).isEqualTo(1);
    }
  }

  @Test
  void concurrencyIsBoundedAndCancellationStopsQueuedRequests() throws Exception {
    try (LoopbackOpenAi server = new LoopbackOpenAi((id, a) -> NONE, Duration.ofMillis(300), Duration.ZERO);
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(
            fastConfig(server).maxConcurrency(3).requestTimeout(Duration.ofSeconds(5)).build())) {
      CompletableFuture<List<GenerationResult>> f = gen.generateAsync(requests(30));
      Thread.sleep(150);
      assertThat(f.cancel(true)).isTrue();
      assertThatThrownBy(f::join).isInstanceOf(CancellationException.class);
      Thread.sleep(600);
      assertThat(server.requests.get()).as("only the first wave was sent").isEqualTo(3);
      assertThat(server.maxInFlight.get()).isLessThanOrEqualTo(3);
      // still usable, and never more than 3 at once
      assertEchoesInOrder(gen.generate(requests(9)), 9);
      assertThat(server.maxInFlight.get()).isEqualTo(3);
    }
  }

  @Test
  void endpointsAreBalancedAndARateLimitedOneIsSkippedWhileCooling() throws Exception {
    try (LoopbackOpenAi a = LoopbackOpenAi.healthy();
        LoopbackOpenAi b = LoopbackOpenAi.healthy()) {
      OpenAiConfig config = fastConfig(a)
          .endpoints(List.of(Endpoint.of(a.baseUrl(), "key-a"), Endpoint.of(b.baseUrl(), "key-b")))
          .maxConcurrency(1)
          .build();
      try (OpenAiTextGenerator gen = OpenAiTextGenerator.create(config)) {
        assertEchoesInOrder(gen.generate(requests(20)), 20);
        assertThat(a.requests.get()).isEqualTo(10);
        assertThat(b.requests.get()).isEqualTo(10);
        assertThat(a.authorizations).allMatch("Bearer key-a"::equals);
        assertThat(b.authorizations).allMatch("Bearer key-b"::equals);
      }
    }
    try (LoopbackOpenAi a = new LoopbackOpenAi((id, n) -> RATE_LIMIT_SECONDS, Duration.ZERO, Duration.ZERO);
        LoopbackOpenAi b = LoopbackOpenAi.healthy()) {
      OpenAiConfig config = fastConfig(a)
          .endpoints(List.of(Endpoint.of(a.baseUrl()), Endpoint.of(b.baseUrl())))
          .maxConcurrency(1)
          .build();
      try (OpenAiTextGenerator gen = OpenAiTextGenerator.create(config)) {
        assertEchoesInOrder(gen.generate(requests(10)), 10);
        assertThat(a.requests.get()).as("the cooling endpoint got only its first request").isEqualTo(1);
        assertThat(b.requests.get()).isEqualTo(10);
      }
    }
  }

  @Test
  void legacyCompletionsApi() throws Exception {
    try (LoopbackOpenAi server = LoopbackOpenAi.healthy();
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(
            fastConfig(server).api(OpenAiConfig.Api.COMPLETIONS).build())) {
      assertEchoesInOrder(gen.generate(requests(5)), 5);
      assertThat(server.paths).allMatch("/v1/completions"::equals);
    }
  }
}
