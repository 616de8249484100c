package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.EmbeddingMatrix;
import java.util.List;
import org.junit.jupiter.api.Test;

class DuplicatesTest {

  /** Unit vectors at the given angles (radians) in the plane. */
  private static EmbeddingMatrix angles(double... radians) {
    float[][] rows = new float[radians.length][];
    for (int i = 0; i < radians.length; i++) {
      rows[i] = new float[] {(float) Math.cos(radians[i]), (float) Math.sin(radians[i])};
    }
    return EmbeddingMatrix.of(rows);
  }

  /**
   * Texts a, b, a, c, d: one exact copy (the second "a"). By angle, a (0) and b (0.2 rad, cosine
   * 0.980) are near-duplicates at 0.95; c (1.0 rad from a, 0.8 from b) and d (2.0) are not. The copy
   * does not count among near-duplicates: it is already an exact one.
   */
  @Test
  void countsExactCopiesAndNearDuplicatesByHand() {
    Duplicates d = Duplicates.of(List.of("a", "b", "a", "c", "d"), angles(0, 0.2, 0, 1.0, 2.0), 0.95);
    assertThat(d.texts()).isEqualTo(5);
    assertThat(d.distinct()).isEqualTo(4);
    assertThat(d.exactDuplicates()).isEqualTo(1);
    assertThat(d.nearDuplicates()).isEqualTo(2);
  }

  /** cos(0.3) = 0.9553: near at 0.95, not at 0.96; the threshold itself counts (>=). */
  @Test
  void theThresholdDecidesAndIsInclusive() {
    assertThat(Duplicates.of(List.of("a", "b"), angles(0, 0.3), 0.95).nearDuplicates()).isEqualTo(2);
    assertThat(Duplicates.of(List.of("a", "b"), angles(0, 0.3), 0.96).nearDuplicates()).isZero();
    assertThat(Duplicates.of(List.of("a", "b"), angles(0, 0), 1.0).nearDuplicates()).isEqualTo(2);
  }

  @Test
  void badInputNamesTheArgument() {
    assertThatThrownBy(() -> Duplicates.of(List.of("a"), angles(0, 1), 0.9))
        .hasMessageContaining("texts=1 rows=2");
    assertThatThrownBy(() -> Duplicates.of(List.of("a", "b"), angles(0, 1), 1.5))
        .hasMessageContaining("threshold=1.5");
    assertThatThrownBy(() -> Duplicates.of(List.of("a", "b"), EmbeddingMatrix.of(new float[][] {{0, 0}, {1, 0}}), 0.9))
        .hasMessageContaining("norm 0");
  }
}
