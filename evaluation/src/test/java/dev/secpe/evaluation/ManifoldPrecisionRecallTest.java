package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.EmbeddingMatrix;
import org.junit.jupiter.api.Test;

class ManifoldPrecisionRecallTest {

  private static EmbeddingMatrix line(float... v) {
    float[][] x = new float[v.length][1];
    for (int i = 0; i < v.length; i++) {
      x[i][0] = v[i];
    }
    return EmbeddingMatrix.of(x);
  }

  /**
   * Worked by hand, k = 1. Real {0, 1, 2, 3, 10}: radii 1, 1, 1, 1, 7. Synthetic {-2, 0.5, 5, 16,
   * 20}: radii 2.5, 2.5, 4.5, 4, 4. Precision: 0.5 (ball of 0), 5 and 16 (ball of 10) covered,
   * -2 and 20 not: 3/5. Recall: 0, 1, 2 (ball of 0.5) and 3 (|3 - 0.5| = 2.5, on the boundary)
   * covered, 10 not (5 +- 4.5, 16 +- 4): 4/5.
   */
  @Test
  void handWorkedOneDimensionalExample() {
    PrecisionRecall pr =
        ManifoldPrecisionRecall.compute(line(0, 1, 2, 3, 10), line(-2, 0.5f, 5, 16, 20), 1);
    assertThat(pr.precision()).isEqualTo(0.6);
    assertThat(pr.recall()).isEqualTo(0.8);
    assertThat(pr.k()).isEqualTo(1);
  }

  @Test
  void oneForIdenticalSets() {
    EmbeddingMatrix a = TestData.gaussian(40, 5, 0, 1);
    PrecisionRecall pr = ManifoldPrecisionRecall.compute(a, a);
    assertThat(pr.precision()).isEqualTo(1.0);
    assertThat(pr.recall()).isEqualTo(1.0);
  }

  @Test
  void zeroForFarApartSets() {
    EmbeddingMatrix a = TestData.gaussian(40, 5, 0, 1);
    EmbeddingMatrix b = TestData.gaussian(40, 5, 100, 2);
    PrecisionRecall pr = ManifoldPrecisionRecall.compute(a, b);
    assertThat(pr.precision()).isZero();
    assertThat(pr.recall()).isZero();
  }

  /** A synthetic set collapsed onto part of the real one: high precision, low recall. */
  @Test
  void modeCollapseShowsAsLowRecall() {
    EmbeddingMatrix real = TestData.gaussian(200, 2, 0, 3);
    float[][] half = new float[100][];
    int m = 0;
    for (int i = 0; i < real.rows() && m < 100; i++) {
      if (real.get(i, 0) > 0.5f) {
        half[m++] = real.row(i);
      }
    }
    EmbeddingMatrix collapsed = EmbeddingMatrix.of(java.util.Arrays.copyOf(half, m));
    PrecisionRecall pr = ManifoldPrecisionRecall.compute(real, collapsed);
    assertThat(pr.precision()).isEqualTo(1.0);
    assertThat(pr.recall()).isLessThan(0.7);
  }

  @Test
  void rejectsBadInputNamingIt() {
    EmbeddingMatrix a = TestData.gaussian(3, 2, 0, 1);
    assertThatThrownBy(() -> ManifoldPrecisionRecall.compute(a, a, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("real needs at least 4 rows, got rows=3");
    assertThatThrownBy(() -> ManifoldPrecisionRecall.compute(a, a, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k must be > 0, got k=0");
  }
}
