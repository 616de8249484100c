package dev.secpe.llm.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class LangChain4jTextEmbedderTest {

  /** Vector of a text: (length, vowels, 1), times 5 so the adapter must normalise. */
  static float[] vectorOf(String t) {
    long vowels = t.chars().filter(c -> "aeiou".indexOf(c) >= 0).count();
    return new float[] {5f * t.length(), 5f * vowels, 5f};
  }

  /** An embedding model that records its batches and answers with {@code answer}. */
  static final class RecordingModel implements EmbeddingModel {
    final List<List<String>> batches = new CopyOnWriteArrayList<>();
    final Function<List<String>, List<Embedding>> answer;

    RecordingModel(Function<List<String>, List<Embedding>> answer) {
      this.answer = answer;
    }

    RecordingModel() {
      this(texts -> texts.stream().map(t -> Embedding.from(vectorOf(t))).toList());
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
      List<String> texts = segments.stream().map(TextSegment::text).toList();
      batches.add(texts);
      return Response.from(answer.apply(texts));
    }

    @Override
    public int dimension() {
      return 3;
    }
  }

  @Test
  void sendsBatchesOfTheSetSizeAndReturnsNormalisedRowsInInputOrder() {
    RecordingModel model = new RecordingModel();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      texts.add("text " + "a".repeat(i));
    }
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.builder(model).batchSize(4).maxConcurrency(3).build()) {
      float[][] v = emb.embed(texts);
      assertThat(model.batches).extracting(List::size).containsExactlyInAnyOrder(4, 4, 2);
      for (int i = 0; i < texts.size(); i++) {
        float[] raw = vectorOf(texts.get(i));
        double norm = Math.sqrt((double) raw[0] * raw[0] + (double) raw[1] * raw[1] + (double) raw[2] * raw[2]);
        for (int j = 0; j < 3; j++) {
          assertThat((double) v[i][j]).isCloseTo(raw[j] / norm, within(1e-6));
        }
      }
      assertThat(emb.dimension()).isEqualTo(3);
      assertThat(emb.normalized()).isTrue();
      assertThat(emb.locality()).isEqualTo(Locality.REMOTE);
    }
  }

  @Test
  void blankTextIsEmbeddedAsTheStandIn() {
    RecordingModel model = new RecordingModel();
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.of(model)) {
      float[][] v = emb.embed(List.of("", "  ", LangChain4jTextEmbedder.BLANK_STAND_IN));
      assertThat(model.batches.get(0)).containsOnly(LangChain4jTextEmbedder.BLANK_STAND_IN);
      assertThat(v[0]).containsExactly(v[2]);
    }
  }

  @Test
  void aModelsFailureLosesItsMessageAndCause() {
    RecordingModel model = new RecordingModel(texts -> {
      throw new IllegalStateException("cannot embed " + texts);
    });
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.builder(model).name("vendor").build()) {
      assertThatThrownBy(() -> emb.embed(List.of("PRIVATE: my phone is 555-0100")))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessage("embedding model 'vendor' failed: java.lang.IllegalStateException")
          .hasNoCause();
    }
  }

  @Test
  void aWrongCountOrDimensionIsAProviderFault() {
    RecordingModel dropsOne = new RecordingModel(texts -> List.of(Embedding.from(vectorOf("x"))));
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.of(dropsOne)) {
      assertThatThrownBy(() -> emb.embed(List.of("a", "b")))
          .isInstanceOf(ProviderFault.class)
          .hasMessage("provider 'langchain4j' returned 1 results for 2 inputs");
    }
    RecordingModel wide = new RecordingModel(texts -> texts.stream().map(t -> Embedding.from(new float[] {1, 2, 3, 4})).toList());
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.of(wide)) {
      assertThatThrownBy(() -> emb.embed(List.of("a")))
          .isInstanceOf(ProviderFault.class)
          .hasMessageContaining("dimension 4 for input 0");
    }
    RecordingModel zero = new RecordingModel(texts -> texts.stream().map(t -> Embedding.from(new float[3])).toList());
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.of(zero)) {
      assertThatThrownBy(() -> emb.embed(List.of("secret words")))
          .isInstanceOf(ProviderException.Permanent.class)
          .hasMessageContaining("zero or non-finite vector for input 0")
          .hasMessageNotContaining("secret");
    }
  }

  @Test
  void aTimeoutInterruptsTheBatchAndFailsRetryably() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    RecordingModel stuck = new RecordingModel(texts -> {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
      return List.of();
    });
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.builder(stuck).timeout(Duration.ofMillis(200)).build()) {
      assertThatThrownBy(() -> emb.embed(List.of("a")))
          .isInstanceOf(ProviderException.Retryable.class)
          .hasMessageContaining("did not answer within PT0.2S");
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void miniLmThroughTheAdapterGivesLangChain4jsOwnVectors() {
    EmbeddingModel model = Models.miniLm();
    List<String> texts = List.of("The meeting moved to Friday.", "Free money, click now!", "");
    try (LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.builder(model).locality(Locality.LOCAL).batchSize(2).build()) {
      float[][] v = emb.embed(texts);
      assertThat(emb.dimension()).isEqualTo(384);
      for (int i = 0; i < 2; i++) {
        float[] ref = model.embed(texts.get(i)).content().vector();
        double norm = 0;
        for (float x : ref) {
          norm += (double) x * x;
        }
        norm = Math.sqrt(norm);
        for (int j = 0; j < ref.length; j++) {
          assertThat((double) v[i][j]).isCloseTo(ref[j] / norm, within(1e-5));
        }
      }
      // Related sentences are closer than unrelated ones (cosine of unit vectors = dot product).
      float[][] w = emb.embed(List.of("The meeting is on Friday.", "Win a free prize today!"));
      assertThat(dot(v[0], w[0])).isGreaterThan(dot(v[0], w[1]));
      assertThat(dot(v[1], w[1])).isGreaterThan(dot(v[1], w[0]));
    }
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }

  @Test
  void theBuilderChecksEachValueAtOnceAndEachOptionOnce() {
    LangChain4jTextEmbedder.Builder b = LangChain4jTextEmbedder.builder(new RecordingModel());
    assertThatThrownBy(() -> b.batchSize(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("batchSize must be >= 1, got batchSize=0");
    assertThatThrownBy(() -> b.dimension(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("dimension must be >= 1, got dimension=-1");
    b.locality(Locality.REMOTE);
    b.locality(Locality.LOCAL); // set twice: the last value wins, as in every builder of the library
    assertThat(b.toString()).contains("locality=LOCAL").doesNotContain("batchSize");
    try (LangChain4jTextEmbedder e = b.build()) {
      assertThat(e.locality()).isEqualTo(Locality.LOCAL);
    }
  }

  @Test
  void aClosedEmbedderSaysSo() {
    LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.of(new RecordingModel());
    emb.close();
    assertThatThrownBy(() -> emb.embed(List.of("a"))).isInstanceOf(ProviderFault.class).hasMessageContaining("is closed");
    assertThat(emb.embed(List.of())).isEmpty();
  }
}
