package dev.secpe.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.testkit.FakeTextEmbedder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OpenAiTextEmbedderTest {

  static OpenAiConfig.Builder config(LoopbackOpenAi server) {
    return OpenAiConfig.builder()
        .endpoint(Endpoint.of(server.baseUrl()))
        .model("test-embedding")
        .embeddingBatchSize(3)
        .maxRetries(3)
        .initialBackoff(Duration.ofMillis(5))
        .maxBackoff(Duration.ofMillis(20))
        .requestTimeout(Duration.ofMillis(2000));
  }

  static List<String> texts(int n) {
    List<String> t = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      t.add("req-" + i + " patient record number " + i);
    }
    return t;
  }

  @Test
  void vectorsComeBackNormalisedInInputOrderAcrossBatches() throws Exception {
    FakeTextEmbedder reference = FakeTextEmbedder.builder().dimension(16).build();
    try (LoopbackOpenAi server = LoopbackOpenAi.healthy();
        OpenAiTextEmbedder e = OpenAiTextEmbedder.create(config(server).build())) {
      assertThat(e.locality()).isEqualTo(Locality.REMOTE);
      List<String> texts = texts(10);
      float[][] v = e.embed(texts);
      assertThat(v).hasNumberOfRows(10);
      for (int i = 0; i < 10; i++) {
        float[] expected = reference.vector(texts.get(i));
        for (int j = 0; j < 16; j++) {
          assertThat(v[i][j]).isCloseTo(expected[j], org.assertj.core.data.Offset.offset(1e-6f));
        }
      }
      assertThat(e.dimension()).isEqualTo(16);
      assertThat(server.requests.get()).as("10 texts in batches of 3").isEqualTo(4);
      assertThat(e.stats().promptTokens()).isEqualTo(10);
    }
  }

  @Test
  void faultsAreRetriedPerBatch() throws Exception {
    // Batches are keyed by their first text's id: req-0, req-3, req-6, req-9.
    LoopbackOpenAi.Script script = (id, attempt) -> attempt > 1 ? LoopbackOpenAi.Fault.NONE
        : switch (id) {
          case "req-0" -> LoopbackOpenAi.Fault.SERVER_ERROR;
          case "req-3" -> LoopbackOpenAi.Fault.RESET;
          case "req-6" -> LoopbackOpenAi.Fault.MALFORMED;
          default -> LoopbackOpenAi.Fault.SLOW;
        };
    try (LoopbackOpenAi server = new LoopbackOpenAi(script, Duration.ZERO, Duration.ofMillis(5000));
        OpenAiTextEmbedder e = OpenAiTextEmbedder.create(config(server).dimension(16).build())) {
      float[][] v = e.embed(texts(10));
      assertThat(v).hasNumberOfRows(10);
      for (String id : List.of("req-0", "req-3", "req-6", "req-9")) {
        assertThat(server.attemptsOf(id)).isEqualTo(2);
      }
      assertThat(e.stats().retries()).isEqualTo(4);
    }
  }

  @Test
  void privateTextNeverAppearsInAnError() throws Exception {
    try (LoopbackOpenAi server = new LoopbackOpenAi(
            (id, a) -> LoopbackOpenAi.Fault.BAD_REQUEST, Duration.ZERO, Duration.ZERO);
        OpenAiTextEmbedder e = OpenAiTextEmbedder.create(config(server).dimension(16).build())) {
      assertThatThrownBy(() -> e.embed(List.of("req-1 alice has hiv")))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessageContaining("HTTP 400")
          .hasMessageContaining("invalid_request_error")
          .hasMessageNotContaining("alice");
    }
  }

  @Test
  void aWrongDimensionIsPermanent() throws Exception {
    try (LoopbackOpenAi server = LoopbackOpenAi.healthy();
        OpenAiTextEmbedder e = OpenAiTextEmbedder.create(config(server).dimension(8).build())) {
      assertThatThrownBy(() -> e.embed(texts(1)))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessageContaining("expected dimension 8");
      assertThat(server.requests.get()).isEqualTo(1);
    }
  }

  @Test
  void anInterruptWhileWaitingCancelsTheRequestsAndKeepsTheInterruptStatus() throws Exception {
    try (LoopbackOpenAi server = new LoopbackOpenAi(
            (id, a) -> LoopbackOpenAi.Fault.SLOW, Duration.ZERO, Duration.ofMillis(10_000));
        OpenAiTextEmbedder e = OpenAiTextEmbedder.create(config(server).dimension(16).build())) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      AtomicBoolean flagAfter = new AtomicBoolean();
      Thread caller = new Thread(() -> {
        try {
          e.embed(List.of("req-1 alice has hiv"));
        } catch (RuntimeException ex) {
          thrown.set(ex);
        }
        flagAfter.set(Thread.currentThread().isInterrupted());
      });
      caller.start();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (server.inFlight.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(server.inFlight.get()).as("the request reached the server").isEqualTo(1);
      caller.interrupt();
      caller.join(5_000);
      assertThat(caller.isAlive()).as("embed returned long before the 10 s reply").isFalse();
      assertThat(thrown.get())
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessage("interrupted while embedding");
      assertThat(flagAfter.get()).as("the interrupt status is kept").isTrue();
      assertThat(e.stats().failed()).as("the request in flight was cancelled").isEqualTo(1);
      assertThat(e.stats().succeeded()).isZero();
    }
  }
}
