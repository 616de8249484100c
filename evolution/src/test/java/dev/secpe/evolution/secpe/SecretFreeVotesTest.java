package dev.secpe.evolution.secpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.evolution.ClusterVotes;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SecretFreeVotesTest {

  @Test
  void recordsVoteOnceAndHolderCountsFollowTheirClustersVotes() {
    // Four secret-free records: two of cluster 0 vote for candidate 0, one of cluster 1 for 1 and
    // one for 2; cluster 2 holds none (a cluster of the public corpus).
    int[] recordVote = {0, 0, 1, 2};
    int[] recordCluster = {0, 0, 1, 1};
    // Representatives: cluster 0 with 2 holders, cluster 1 with 4, cluster 2 with 1.5 (nearest
    // candidate 1), and one whose noisy count fell below its public size (-3: counts as 0).
    int[] repCluster = {0, 1, 2, 1};
    double[] repCount = {2, 4, 1.5, -3};
    int[] repNearest = {2, 0, 1, 0};
    double[] h = SecretFreeVotes.histogram(3, ClusterVotes.of(recordCluster, recordVote, 3), true, 3, repCluster, repCount, repNearest);
    // By hand: records [2, 1, 1]; cluster 0's 2 all to candidate 0; cluster 1's 4 half to 1, half
    // to 2; cluster 2's 1.5 to its nearest, 1.
    assertThat(h).containsExactly(new double[] {4, 4.5, 3}, within(1e-12));
  }

  @Test
  void withoutHolderCountsItIsTheRecordsNearestNeighbourCount() {
    double[] h = SecretFreeVotes.histogram(
        4, ClusterVotes.of(new int[] {0, 1, 1, 0}, new int[] {3, 3, 0, 3}, 4), true, 2, new int[] {0, 1},
        new double[] {0, -1}, new int[] {1, 2});
    assertThat(h).containsExactly(1, 0, 0, 3);
  }

  /** The votes add up to the records plus the representatives' positive counts, and none is negative. */
  @Property(tries = 200)
  void votesAreConservedAndNonNegative(
      @ForAll @IntRange(min = 1, max = 20) int candidates,
      @ForAll @IntRange(min = 0, max = 60) int records,
      @ForAll @IntRange(min = 1, max = 8) int clusters,
      @ForAll @IntRange(min = 0, max = 12) int reps,
      @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    int[] recordVote = new int[records];
    int[] recordCluster = new int[records];
    for (int i = 0; i < records; i++) {
      recordVote[i] = rng.nextInt(candidates);
      recordCluster[i] = rng.nextInt(clusters);
    }
    int[] repCluster = new int[reps];
    double[] repCount = new double[reps];
    int[] repNearest = new int[reps];
    double expected = records;
    for (int q = 0; q < reps; q++) {
      repCluster[q] = rng.nextInt(clusters);
      repCount[q] = rng.nextDouble(-5, 10);
      repNearest[q] = rng.nextInt(candidates);
      expected += Math.max(0, repCount[q]);
    }
    double[] h = SecretFreeVotes.histogram(
        candidates, ClusterVotes.of(recordCluster, recordVote, candidates), true, clusters, repCluster, repCount,
        repNearest);
    double total = 0;
    for (double v : h) {
      assertThat(v).isGreaterThanOrEqualTo(0);
      total += v;
    }
    assertThat(total).isCloseTo(expected, within(1e-9 * Math.max(1, expected)));
  }

  /**
   * Guided only (the public corpus's members without the split): the records' votes are not
   * counted, they only spread the representatives' counts. Cluster 0's records voted 3, 3 (2 of
   * 2 for candidate 3), cluster 1's 3 and 0 (half each): representative 0 (count 4, cluster 0)
   * gives 4 to candidate 3, representative 1 (count 6, cluster 1) 3 to candidate 3 and 3 to 0;
   * representative 2 (count 2, cluster 2, no votes) gives its 2 to its nearest candidate, 1.
   */
  @Test
  void guidedOnlyTheRecordsSpreadTheCountsAndAreNotCounted() {
    double[] h = SecretFreeVotes.histogram(
        4, ClusterVotes.of(new int[] {0, 1, 1, 0}, new int[] {3, 3, 0, 3}, 4), false, 3, new int[] {0, 1, 2},
        new double[] {4, 6, 2}, new int[] {1, 2, 1});
    assertThat(h).containsExactly(new double[] {3, 2, 0, 7}, within(1e-12));
  }
}
