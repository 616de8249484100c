package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import dev.secpe.llm.spi.TextEmbedderProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The int8-quantised all-MiniLM-L6-v2 ({@code all-minilm-l6-v2-q}). The bounds are facts about
 * the two weight files, not about this code: quantising the weights to int8 leaves the sentence
 * vectors of this model within cosine ~0.98 of the float32 ones (measured independently with
 * Python ONNX Runtime on long e-mails: mean 0.991, min 0.979), so 0.95 on short sentences leaves
 * a wide margin, while a wrong model file, tokenizer or pooling gives cosines far lower.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MiniLmQuantizedEmbedderTest {

  private static final List<String> SENTENCES =
      List.of(
          "The cat sat on the mat.",
          "A cat was sitting on a rug.",
          "Quarterly revenue grew by twelve percent.",
          "Please reset my password, I cannot log in.",
          "The weather in Lisbon is sunny today.",
          "Contact me at jane.doe@example.com or +1 555 0100.");

  private MiniLmEmbedder quantized;
  private MiniLmEmbedder fp32;

  @BeforeAll
  void load() {
    quantized = MiniLmEmbedder.builder().model(MiniLmEmbedder.Model.INT8).threads(2).build();
    fp32 = MiniLmEmbedder.builder().threads(2).batchSize(3).build();
  }

  @AfterAll
  void close() {
    quantized.close();
    fp32.close();
  }

  @Test
  void describesItselfUnderItsOwnName() {
    assertThat(quantized.name()).isEqualTo("all-minilm-l6-v2-q").isEqualTo(MiniLmEmbedder.QUANTIZED_NAME);
    // Caches and checkpoints key vectors by name: the two models must never share one.
    assertThat(quantized.name()).isNotEqualTo(fp32.name());
    assertThat(fp32.name()).isEqualTo("all-minilm-l6-v2");
    assertThat(quantized.model()).isEqualTo(MiniLmEmbedder.Model.INT8);
    assertThat(fp32.model()).isEqualTo(MiniLmEmbedder.Model.FP32);
    assertThat(quantized.dimension()).isEqualTo(384);
    assertThat(quantized.normalized()).isTrue();
    assertThat(quantized.locality()).isEqualTo(Locality.LOCAL);
    assertThat(quantized.batchSize()).isEqualTo(1);
    assertThat(MiniLmEmbedder.Model.INT8.batchInvariant()).isFalse();
    assertThat(MiniLmEmbedder.Model.FP32.batchInvariant()).isTrue();
  }

  @Test
  void returnsUnitVectorsOfDimension384() {
    float[][] v = quantized.embed(SENTENCES);
    assertThat(v).hasNumberOfRows(SENTENCES.size());
    for (float[] row : v) {
      assertThat(row).hasSize(384);
      double s = 0;
      for (float x : row) {
        s += (double) x * x;
      }
      assertThat(Math.sqrt(s)).isCloseTo(1.0, Offset.offset(1e-5));
    }
  }

  @Test
  void vectorsAreCloseToTheFloat32ModelsButNotEqual() {
    float[][] q = quantized.embed(SENTENCES);
    float[][] f = fp32.embed(SENTENCES);
    boolean anyDifferent = false;
    for (int i = 0; i < SENTENCES.size(); i++) {
      double c = MiniLmEmbedderTest.cosine(q[i], f[i]);
      assertThat(c).as("cosine(int8, fp32) of sentence %d", i).isGreaterThan(0.95);
      anyDifferent |= c < 1 - 1e-4;
    }
    // Guards against both names silently loading the same file.
    assertThat(anyDifferent).as("int8 vectors differ from fp32 ones").isTrue();
  }

  /**
   * The quantised file scales its activations per batch tensor, so a batched text's vector would
   * depend on its neighbours (cosine ~0.99 to the same text alone). Run one at a time, a text's
   * vector is bit-identical whatever else is in the call and in whatever order.
   */
  @Test
  void aTextsVectorDoesNotDependOnTheOtherTextsOfTheCall() {
    float[][] all = quantized.embed(SENTENCES);
    List<String> reversed = new ArrayList<>(SENTENCES);
    Collections.reverse(reversed);
    reversed.add("A much longer text that would set the padding and the activation range of a batch: "
        + String.join(" ", Collections.nCopies(100, "lorem ipsum")));
    float[][] r = quantized.embed(reversed);
    for (int i = 0; i < SENTENCES.size(); i++) {
      float[] alone = quantized.embed(List.of(SENTENCES.get(i)))[0];
      assertThat(all[i]).containsExactly(alone);
      assertThat(r[SENTENCES.size() - 1 - i]).containsExactly(alone);
    }
  }

  /**
   * Independent reference: LangChain4j's own AllMiniLmL6V2QuantizedEmbeddingModel runs the same
   * ONNX file one text at a time with its own tokenizer setup and pooling code.
   */
  @Test
  void agreesWithLangChain4jQuantizedReferenceImplementation() {
    AllMiniLmL6V2QuantizedEmbeddingModel reference = new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);
    float[][] ours = quantized.embed(SENTENCES);
    for (int i = 0; i < SENTENCES.size(); i++) {
      float[] ref = reference.embed(SENTENCES.get(i)).content().vector();
      MiniLmEmbedderTest.assertMaxAbsDiff(ours[i], ref, 5e-5);
    }
  }

  @Test
  void refusesBatchesForTheQuantizedModel() {
    assertThatThrownBy(() -> MiniLmEmbedder.builder().model(MiniLmEmbedder.Model.INT8).batchSize(4).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize=4")
        .hasMessageContaining("all-minilm-l6-v2-q");
    assertThatThrownBy(() -> new MiniLmQuantizedEmbedderProvider()
            .create(ProviderConfig.of(Map.of("batch-size", "8"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize=8");
  }

  @Test
  void providerIsFoundByNameThroughProviders() {
    TextEmbedderProvider p = Providers.installed().embedder("all-minilm-l6-v2-q");
    assertThat(p).isInstanceOf(MiniLmQuantizedEmbedderProvider.class);
    assertThat(p.locality()).isEqualTo(Locality.LOCAL);
    assertThat(Providers.installed().embedder("all-minilm-l6-v2"))
        .isInstanceOf(MiniLmEmbedderProvider.class);
    try (TextEmbedder e = p.create(ProviderConfig.of(Map.of("threads", "1", "batch-size", "1")))) {
      assertThat(e.name()).isEqualTo("all-minilm-l6-v2-q");
      assertThat(((MiniLmEmbedder) e).model()).isEqualTo(MiniLmEmbedder.Model.INT8);
      assertThat(((MiniLmEmbedder) e).threads()).isEqualTo(1);
      assertThat(e.embed(List.of("hello world"))[0]).hasSize(384);
    }
  }

  @Test
  void createQuantizedUsesTheInt8Model() {
    try (MiniLmEmbedder e = MiniLmEmbedder.createQuantized()) {
      assertThat(e.model()).isEqualTo(MiniLmEmbedder.Model.INT8);
      assertThat(e.name()).isEqualTo("all-minilm-l6-v2-q");
    }
  }
}
