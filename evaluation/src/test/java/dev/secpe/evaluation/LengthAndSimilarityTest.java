package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.secpe.core.EmbeddingMatrix;
import java.util.List;
import org.junit.jupiter.api.Test;

class LengthAndSimilarityTest {

  /** scipy.stats.wasserstein_distance and ks_2samp on the same samples (reference.py). */
  @Test
  void lengthDistancesMatchScipy() {
    for (JsonNode c : Reference.get().get("length")) {
      LengthDistance d =
          LengthDistance.of(Reference.vector(c.get("real")), Reference.vector(c.get("synthetic")));
      String name = c.get("name").asText();
      assertThat(d.wasserstein1()).as(name).isCloseTo(c.get("wasserstein1").asDouble(), within(1e-12));
      assertThat(d.kolmogorovSmirnov()).as(name).isCloseTo(c.get("ks").asDouble(), within(1e-12));
    }
  }

  @Test
  void lengthsOfTextsAreWordCounts() {
    LengthDistance d =
        LengthDistance.ofTexts(List.of("one two three", "a b"), List.of("x y z", "p q r s t"));
    // real {3, 2}, synthetic {3, 5}: W1 = (|2-3| + |3-5|) / 2 sorted pairing = 1.5
    assertThat(d.meanReal()).isEqualTo(2.5);
    assertThat(d.meanSynthetic()).isEqualTo(4.0);
    assertThat(d.wasserstein1()).isCloseTo(1.5, within(1e-12));
    assertThat(d.kolmogorovSmirnov()).isEqualTo(0.5);
    LengthDistance same = LengthDistance.ofTexts(List.of("a b", "c"), List.of("c", "a b"));
    assertThat(same.wasserstein1()).isZero();
    assertThat(same.kolmogorovSmirnov()).isZero();
  }

  @Test
  void lengthRejectsBadInput() {
    assertThatThrownBy(() -> LengthDistance.of(new double[] {1, Double.NaN}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("real[1] must be finite and >= 0, got NaN");
    assertThatThrownBy(() -> LengthDistance.of(new double[] {1}, new double[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("synthetic must not be empty");
  }

  /** The full cosine matrix's off-diagonal mean, computed in numpy (reference.py). */
  @Test
  void selfSimilarityMatchesPairwiseCosines() {
    for (JsonNode c : Reference.get().get("self_similarity")) {
      EmbeddingMatrix x = EmbeddingMatrix.of(Reference.floats(c.get("x")));
      assertThat(SelfSimilarity.meanPairwiseCosine(x))
          .as(c.get("name").asText())
          .isCloseTo(c.get("mean_cosine").asDouble(), within(1e-6));
    }
  }

  @Test
  void selfSimilarityExtremes() {
    EmbeddingMatrix same = EmbeddingMatrix.of(new float[][] {{1, 2}, {2, 4}, {0.5f, 1}});
    assertThat(SelfSimilarity.meanPairwiseCosine(same)).isCloseTo(1.0, within(1e-7));
    EmbeddingMatrix opposite = EmbeddingMatrix.of(new float[][] {{1, 0}, {-1, 0}});
    assertThat(SelfSimilarity.meanPairwiseCosine(opposite)).isCloseTo(-1.0, within(1e-7));
    EmbeddingMatrix zero = EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 0}});
    assertThatThrownBy(() -> SelfSimilarity.meanPairwiseCosine(zero))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("row 1 has norm 0");
  }
}
