package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.secpe.llm.Locality;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MiniLmEmbedderTest {

  private MiniLmEmbedder embedder;

  private static final List<String> SENTENCES =
      List.of(
          "The cat sat on the mat.",
          "A cat was sitting on a rug.",
          "Quarterly revenue grew by twelve percent.",
          "Please reset my password, I cannot log in.",
          "I forgot my password and can't sign in to my account.",
          "The weather in Lisbon is sunny today.",
          "",
          "Contact me at jane.doe@example.com or +1 555 0100.");

  @BeforeAll
  void load() {
    embedder = MiniLmEmbedder.builder().threads(2).batchSize(3).build();
  }

  @AfterAll
  void close() {
    embedder.close();
  }

  @Test
  void describesItself() {
    assertThat(embedder.name()).isEqualTo("all-minilm-l6-v2");
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.normalized()).isTrue();
    assertThat(embedder.locality()).isEqualTo(Locality.LOCAL);
  }

  @Test
  void vectorsHaveUnitNormAndTheDeclaredDimension() {
    float[][] v = embedder.embed(SENTENCES);
    assertThat(v).hasNumberOfRows(SENTENCES.size());
    for (float[] row : v) {
      assertThat(row).hasSize(384);
      double s = 0;
      for (float x : row) {
        s += (double) x * x;
      }
      // float32 accumulation of 384 terms: relative error far below 1e-5.
      assertThat(Math.sqrt(s)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    }
  }

  @Test
  void deterministicAndIndependentOfBatchingAndOrder() {
    float[][] a = embedder.embed(SENTENCES);
    float[][] b = embedder.embed(SENTENCES);
    for (int i = 0; i < a.length; i++) {
      assertThat(b[i]).containsExactly(a[i]);
    }
    // One at a time: no padding at all; batched rows carry padding that the mask must cancel.
    for (int i = 0; i < SENTENCES.size(); i++) {
      float[] single = embedder.embed(List.of(SENTENCES.get(i)))[0];
      assertThat(cosine(single, a[i])).isGreaterThan(1 - 1e-5);
      assertMaxAbsDiff(single, a[i], 2e-5);
    }
    List<String> reversed = new ArrayList<>(SENTENCES);
    java.util.Collections.reverse(reversed);
    float[][] r = embedder.embed(reversed);
    for (int i = 0; i < a.length; i++) {
      assertMaxAbsDiff(r[a.length - 1 - i], a[i], 2e-5);
    }
  }

  @Test
  void paraphrasesAreCloserThanUnrelatedSentences() {
    float[][] v = embedder.embed(SENTENCES);
    double catParaphrase = cosine(v[0], v[1]);
    double passwordParaphrase = cosine(v[3], v[4]);
    assertThat(catParaphrase).isGreaterThan(0.5);
    assertThat(passwordParaphrase).isGreaterThan(0.5);
    for (int unrelated : new int[] {2, 3, 5}) {
      assertThat(cosine(v[0], v[unrelated])).isLessThan(catParaphrase - 0.3);
    }
    assertThat(cosine(v[3], v[5])).isLessThan(passwordParaphrase - 0.3);
  }

  /**
   * Independent reference: LangChain4j's own AllMiniLmL6V2EmbeddingModel runs the same ONNX file
   * one text at a time, unpadded, with its own tokenizer setup and pooling code. For texts under
   * 128 word pieces both pipelines must agree to float rounding.
   */
  @Test
  void agreesWithLangChain4jReferenceImplementation() {
    AllMiniLmL6V2EmbeddingModel reference = new AllMiniLmL6V2EmbeddingModel(Runnable::run);
    float[][] ours = embedder.embed(SENTENCES);
    for (int i = 0; i < SENTENCES.size(); i++) {
      if (SENTENCES.get(i).isEmpty()) {
        continue; // LangChain4j refuses blank text
      }
      float[] ref = reference.embed(SENTENCES.get(i)).content().vector();
      assertMaxAbsDiff(ours[i], ref, 5e-5);
    }
  }

  @Test
  void concurrentCallersGetTheSameVectors() throws Exception {
    float[][] expected = embedder.embed(SENTENCES);
    java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<float[][]>> futures = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        futures.add(callers.submit(() -> embedder.embed(SENTENCES)));
      }
      for (var f : futures) {
        float[][] got = f.get();
        for (int i = 0; i < expected.length; i++) {
          assertThat(got[i]).containsExactly(expected[i]);
        }
      }
    } finally {
      callers.shutdown();
    }
  }

  @Test
  void truncatesLongTextsInsteadOfFailing() {
    String longText = String.join(" ", java.util.Collections.nCopies(2000, "word"));
    float[][] v = embedder.embed(List.of(longText, "short"));
    assertThat(v[0]).hasSize(384);
  }

  @Test
  void rejectsNullTextsNamingTheIndex() {
    assertThatThrownBy(() -> embedder.embed(Arrays.asList("a", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("index 1");
  }

  @Test
  void builderValidatesEagerly() {
    assertThatThrownBy(() -> MiniLmEmbedder.builder().threads(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threads=0");
    assertThatThrownBy(() -> MiniLmEmbedder.builder().batchSize(-1))
        .hasMessageContaining("batchSize=-1");
    assertThatThrownBy(() -> MiniLmEmbedder.builder().maxSequenceLength(513))
        .hasMessageContaining("maxSequenceLength=513");
  }

  static double cosine(float[] a, float[] b) {
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  static void assertMaxAbsDiff(float[] a, float[] b, double tol) {
    assertThat(a).hasSameSizeAs(b);
    double max = 0;
    for (int i = 0; i < a.length; i++) {
      max = Math.max(max, Math.abs(a[i] - b[i]));
    }
    assertThat(max).as("max |a-b|").isLessThanOrEqualTo(tol);
  }
  /**
   * close() while other threads are embedding: it waits for the calls in flight (closing the
   * native session under them crashed the JVM on SIGTERM), later calls fail cleanly.
   */
  @Test
  void closeWaitsForCallsInFlightAndLaterCallsFailCleanly() throws Exception {
    MiniLmEmbedder own = MiniLmEmbedder.builder().threads(2).build();
    String longText = String.join(" ", java.util.Collections.nCopies(200, "the quarterly invoice was delayed again"));
    List<String> batch = java.util.Collections.nCopies(16, longText);
    java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(3);
    java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(3);
    java.util.List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
    for (int t = 0; t < 3; t++) {
      done.add(callers.submit(() -> {
        started.countDown();
        int ok = 0;
        for (int k = 0; k < 50; k++) {
          try {
            float[][] v = own.embed(batch);
            assertThat(v.length).isEqualTo(16);
            ok++;
          } catch (IllegalStateException closed) {
            assertThat(closed).hasMessage("provider 'all-minilm-l6-v2' is closed");
            break;
          }
        }
        return ok;
      }));
    }
    started.await();
    Thread.sleep(200);
    own.close(); // must not crash the JVM: the native session closes only when no call is running
    for (java.util.concurrent.Future<Integer> f : done) {
      assertThat(f.get(120, java.util.concurrent.TimeUnit.SECONDS)).isBetween(0, 49);
    }
    callers.shutdown();
    assertThatThrownBy(() -> own.embed(List.of("after"))).hasMessage("provider 'all-minilm-l6-v2' is closed");
    own.close(); // idempotent
  }
}
