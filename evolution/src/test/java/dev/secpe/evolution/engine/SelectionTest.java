package dev.secpe.evolution.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SelectionTest {

  @Test
  void topNBreaksTiesTowardsTheLowerIndex() {
    assertThat(Selection.topN(new double[] {1, 3, 3, 0, 3}, 3)).containsExactly(1, 2, 4);
    assertThat(Selection.topN(new double[] {1, 3, 3, 0, 3}, 4)).containsExactly(1, 2, 4, 0);
  }

  @Test
  void topNRejectsTooMany() {
    assertThatThrownBy(() -> Selection.topN(new double[] {1}, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n=2");
  }

  @Test
  void proportionalNeverPicksNonPositiveScores() {
    double[] scores = {0, 2, -5, 0, 1, 0};
    int[] picks = Selection.proportional(scores, 5000, new SplittableRandom(7));
    int[] counts = new int[scores.length];
    for (int p : picks) {
      counts[p]++;
    }
    assertThat(counts[0] + counts[2] + counts[3] + counts[5]).isZero();
    // Binomial(5000, 2/3): mean 3333.3, sd 33.3; +-5 sd gives a false-failure rate < 1e-6.
    assertThat(counts[1]).isBetween(3333 - 167, 3333 + 167);
  }

  @Test
  void proportionalIsUniformWhenNothingIsPositive() {
    int[] picks = Selection.proportional(new double[] {-1, 0, -2}, 3000, new SplittableRandom(1));
    int[] counts = new int[3];
    for (int p : picks) {
      counts[p]++;
    }
    // Binomial(3000, 1/3): sd 25.8; +-5 sd.
    for (int c : counts) {
      assertThat(c).isBetween(1000 - 129, 1000 + 129);
    }
  }

  @org.junit.jupiter.api.Test
  void proportionalDistinctNeverRepeatsAndTakesWeightlessIndicesLast() {
    java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
    double[] scores = {0, 5, -1, 2, 0, 9};
    for (int trial = 0; trial < 200; trial++) {
      int[] pick = Selection.proportionalDistinct(scores, 4, rng);
      org.assertj.core.api.Assertions.assertThat(pick).doesNotHaveDuplicates().hasSize(4);
      // The three positive weights come first; the fourth is the lowest weightless index, 0.
      org.assertj.core.api.Assertions.assertThat(java.util.Arrays.copyOf(pick, 3)).containsExactlyInAnyOrder(1, 3, 5);
      org.assertj.core.api.Assertions.assertThat(pick[3]).isEqualTo(0);
    }
    // First pick frequencies follow the weights 5:2:9 (n = 4000; 4 sd of a binomial is < 0.032).
    int[] first = new int[6];
    for (int trial = 0; trial < 4000; trial++) {
      first[Selection.proportionalDistinct(scores, 1, rng)[0]]++;
    }
    org.assertj.core.api.Assertions.assertThat(first[5] / 4000.0).isCloseTo(9 / 16.0, org.assertj.core.api.Assertions.within(0.032));
    org.assertj.core.api.Assertions.assertThat(first[1] / 4000.0).isCloseTo(5 / 16.0, org.assertj.core.api.Assertions.within(0.032));
  }
}
