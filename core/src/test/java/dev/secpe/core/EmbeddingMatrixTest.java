package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.FloatRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class EmbeddingMatrixTest {

  @Test
  void rowsAndValuesAreCopiedNotShared() {
    float[][] src = {{1, 2, 3}, {4, 5, 6}};
    EmbeddingMatrix m = EmbeddingMatrix.of(src);
    src[0][0] = 99;
    assertThat(m.get(0, 0)).isEqualTo(1f);
    float[] row = m.row(1);
    row[0] = 99;
    assertThat(m.get(1, 0)).isEqualTo(4f);
    assertThat(m.toFlatArray()).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(m).isEqualTo(EmbeddingMatrix.ofFlat(2, 3, new float[] {1, 2, 3, 4, 5, 6}));
    assertThat(m.toString()).isEqualTo("EmbeddingMatrix[2 x 3]");
  }

  @Test
  void normsAndDotProducts() {
    EmbeddingMatrix m = EmbeddingMatrix.of(new float[][] {{3, 4}, {0, 2}});
    assertThat(m.rowNorm(0)).isEqualTo(5.0);
    assertThat(m.dot(0, m, 1)).isEqualTo(8.0);
    EmbeddingMatrix n = m.normalizeRows();
    assertThat(n.get(0, 0)).isEqualTo(0.6f, within(1e-7f));
    assertThat(n.get(0, 1)).isEqualTo(0.8f, within(1e-7f));
    assertThat(n.row(1)).containsExactly(0f, 1f);
  }

  @Test
  void badInputIsRejectedWithPosition() {
    assertThatThrownBy(() -> EmbeddingMatrix.of(new float[][] {{1, 2}, {1}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("row 1 has dimension 1, expected 2");
    assertThatThrownBy(() -> EmbeddingMatrix.of(new float[][] {{1, Float.NaN}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row 0, column 1 is not finite: NaN");
    assertThatThrownBy(() -> EmbeddingMatrix.ofFlat(2, 3, new float[5]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected rows*dimension=2*3");
    EmbeddingMatrix zero = EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 0}});
    assertThatThrownBy(zero::normalizeRows)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("row 1 has norm 0");
    assertThat(zero.normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO).row(1))
        .containsExactly(0f, 0f);
  }

  @Test
  void selectAndConcat() {
    EmbeddingMatrix a = EmbeddingMatrix.of(new float[][] {{1, 1}, {2, 2}});
    EmbeddingMatrix b = EmbeddingMatrix.of(new float[][] {{3, 3}});
    EmbeddingMatrix c = EmbeddingMatrix.concat(List.of(a, b));
    assertThat(c.rows()).isEqualTo(3);
    assertThat(c.selectRows(new int[] {2, 0, 2}).toFlatArray()).containsExactly(3, 3, 1, 1, 3, 3);
    assertThatThrownBy(
            () -> EmbeddingMatrix.concat(List.of(a, EmbeddingMatrix.of(new float[][] {{1, 2, 3}}))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Property(tries = 200)
  void normalisedRowsHaveUnitNormAndKeepDirection(
      @ForAll @Size(min = 1, max = 64) List<@FloatRange(min = -1e3f, max = 1e3f) Float> values) {
    float[] v = new float[values.size()];
    double sq = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = values.get(i);
      sq += (double) v[i] * v[i];
    }
    net.jqwik.api.Assume.that(sq > 1e-12);
    EmbeddingMatrix n = EmbeddingMatrix.of(new float[][] {v}).normalizeRows();
    assertThat(n.rowNorm(0)).isCloseTo(1.0, within(1e-6));
    // Direction is kept: the cosine with the original is 1.
    EmbeddingMatrix orig = EmbeddingMatrix.of(new float[][] {v});
    assertThat(n.dot(0, orig, 0) / Math.sqrt(sq)).isCloseTo(1.0, within(1e-6));
  }
}
