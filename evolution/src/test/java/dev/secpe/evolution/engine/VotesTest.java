package dev.secpe.evolution.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class VotesTest {

  @Test
  void eachRecordContributesUnitL2Norm() {
    // Record 0 votes for {0, 2}, record 1 for {1, 2}: each gives 1/sqrt(2) per vote.
    double[] h = Votes.nearestNeighbour(new int[][] {{0, 2}, {1, 2}}, 3);
    double w = 1 / Math.sqrt(2);
    assertThat(h).containsExactly(new double[] {w, w, 2 * w}, within(1e-15));
  }

  @Property
  void removingOneRecordMovesHistogramByExactlyOneInL2(
      @ForAll @IntRange(min = 1, max = 6) int k, @ForAll @IntRange(min = 1, max = 40) int records) {
    int candidates = 10;
    int[][] nearest = new int[records][k];
    for (int i = 0; i < records; i++) {
      for (int j = 0; j < k; j++) {
        nearest[i][j] = (i * 7 + j * 3) % candidates;
      }
      nearest[i] = java.util.Arrays.stream(nearest[i]).distinct().toArray();
    }
    double[] full = Votes.nearestNeighbour(nearest, candidates);
    double[] without =
        Votes.nearestNeighbour(java.util.Arrays.copyOf(nearest, records - 1), candidates);
    double sq = 0;
    for (int c = 0; c < candidates; c++) {
      sq += (full[c] - without[c]) * (full[c] - without[c]);
    }
    // The removed row has distinct indices, possibly fewer than k after de-duplication.
    assertThat(Math.sqrt(sq)).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void votesAreCountedAsIntegersAndWeightedOnce() {
    // 10 records each give candidate 0 one of their k = 3 votes: the entry is 10 / sqrt(3)
    // exactly as 10 * (1 / sqrt(3)), however the records are ordered (ten additions of
    // 1 / sqrt(3) accumulate rounding: 5.773502691896259 instead of 5.773502691896258).
    int[][] nearest = new int[10][];
    for (int i = 0; i < 10; i++) {
      nearest[i] = new int[] {0, 1 + i % 2, 3};
    }
    double[] h = Votes.nearestNeighbour(nearest, 4);
    assertThat(h[0]).isEqualTo(10 * (1.0 / Math.sqrt(3)));
    assertThat(h[1]).isEqualTo(h[2]).isEqualTo(5 * (1.0 / Math.sqrt(3)));
    // rows of different lengths are weighted by their own length
    double[] mixed = Votes.nearestNeighbour(new int[][] {{0}, {0, 1}}, 2);
    assertThat(mixed[0]).isEqualTo(1.0 + 1.0 / Math.sqrt(2));
  }

  @Test
  void representativeVoteAddsNoisyCountsOfCentres() {
    double[] h = Votes.representative(new int[] {2, 0, 2}, new double[] {5.5, -1.0, 2.0}, 4);
    assertThat(h).containsExactly(-1.0, 0.0, 7.5, 0.0);
  }

  @Test
  void representativeVoteRejectsMismatchedLengths() {
    assertThatThrownBy(() -> Votes.representative(new int[] {0}, new double[] {1, 2}, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 indices for 2 centres");
  }

  @Test
  void thresholdZeroesCountsBelowH() {
    assertThat(Votes.threshold(new double[] {-3, 1.9, 2.0, 7}, 2.0)).containsExactly(0, 0, 2.0, 7);
  }
}
