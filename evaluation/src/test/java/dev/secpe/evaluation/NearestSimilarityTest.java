package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.EmbeddingMatrix;
import org.junit.jupiter.api.Test;

class NearestSimilarityTest {

  @Test
  void matchesAHandComputedExample() {
    // real: e1, e2 and (e1 + e2)/sqrt2; synthetic: e1 and 2*e3 (norms do not matter).
    double h = Math.sqrt(0.5);
    EmbeddingMatrix real =
        EmbeddingMatrix.of(new float[][] {{1, 0, 0}, {0, 1, 0}, {(float) h, (float) h, 0}});
    EmbeddingMatrix synth = EmbeddingMatrix.of(new float[][] {{1, 0, 0}, {0, 0, 2}});
    NearestSimilarity s = NearestSimilarity.of(real, synth);
    // fidelity: e1 -> 1 (itself); e3 -> 0 (orthogonal to all): mean 0.5
    assertThat(s.fidelity()).isCloseTo(0.5, within(1e-6));
    // coverage: e1 -> 1, e2 -> 0, (e1+e2)/sqrt2 -> sqrt(0.5): mean (1 + sqrt(0.5)) / 3
    assertThat(s.coverage()).isCloseTo((1 + h) / 3, within(1e-6));
  }

  @Test
  void movingASyntheticTextOntoARealOneRaisesBoth() {
    EmbeddingMatrix real = EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 1}});
    NearestSimilarity far = NearestSimilarity.of(real, EmbeddingMatrix.of(new float[][] {{1, 0}, {-1, -1}}));
    NearestSimilarity near = NearestSimilarity.of(real, EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 1}}));
    assertThat(near.fidelity()).isGreaterThan(far.fidelity());
    assertThat(near.coverage()).isGreaterThan(far.coverage());
    assertThat(near.fidelity()).isCloseTo(1.0, within(1e-9));
    assertThat(near.coverage()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void refusesEmptySetsAndZeroRows() {
    EmbeddingMatrix real = EmbeddingMatrix.of(new float[][] {{1, 0}});
    assertThatThrownBy(() -> NearestSimilarity.of(real, EmbeddingMatrix.of(new float[][] {{0, 0}})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("synthetic row 0 has norm 0");
    assertThatThrownBy(() -> NearestSimilarity.of(real, EmbeddingMatrix.empty(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("synthetic");
  }
}
