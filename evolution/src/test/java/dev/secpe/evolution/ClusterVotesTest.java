package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** {@link ClusterVotes}: sparse (cluster, candidate) counts that merge exactly, in any split. */
class ClusterVotesTest {

  @Test
  void countsEachPairOnceInClusterThenCandidateOrder() {
    // Records (cluster, candidate): (1, 2), (0, 3), (1, 2), (0, 0), (1, 0) over 4 candidates.
    ClusterVotes v = ClusterVotes.of(new int[] {1, 0, 1, 0, 1}, new int[] {2, 3, 2, 0, 0}, 4);
    assertThat(v.pairs()).isEqualTo(4);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < v.pairs(); i++) {
      seen.add(v.cluster(i) + "," + v.candidate(i) + "=" + v.count(i));
    }
    assertThat(seen).containsExactly("0,0=1", "0,3=1", "1,0=1", "1,2=2");
    assertThat(v.toString()).isEqualTo("ClusterVotes[4 pairs]");
    assertThat(ClusterVotes.of(new int[0], new int[0], 4)).isEqualTo(ClusterVotes.none());
  }

  @Test
  void refusesRecordsOutsideTheCandidates() {
    assertThatThrownBy(() -> ClusterVotes.of(new int[] {0, 1}, new int[] {1, 4}, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("record 1 has cluster 1 and candidate 4, outside [0, 4)");
    assertThatThrownBy(() -> ClusterVotes.of(new int[] {0}, new int[] {1, 2}, 4))
        .hasMessageContaining("got 1 clusters and 2 candidates");
    assertThatThrownBy(() -> ClusterVotes.of(new int[] {0}, new int[] {1}, 4).merge(ClusterVotes.of(new int[] {0}, new int[] {1}, 5)))
        .hasMessageContaining("same candidates to merge, got 4 and 5");
  }

  /** The votes of the parts of any split, merged in any order, are the votes of the whole. */
  @Property(tries = 200)
  void partsMergeIntoTheWhole(
      @ForAll @IntRange(min = 0, max = 80) int records,
      @ForAll @IntRange(min = 1, max = 6) int clusters,
      @ForAll @IntRange(min = 1, max = 9) int candidates,
      @ForAll @IntRange(min = 1, max = 5) int parts,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] cluster = new int[records];
    int[] candidate = new int[records];
    long[][] expected = new long[clusters][candidates];
    for (int i = 0; i < records; i++) {
      cluster[i] = rnd.nextInt(clusters);
      candidate[i] = rnd.nextInt(candidates);
      expected[cluster[i]][candidate[i]]++;
    }
    ClusterVotes merged = ClusterVotes.none();
    int from = 0;
    for (int p = 0; p < parts; p++) {
      int to = p == parts - 1 ? records : Math.min(records, from + rnd.nextInt(0, records + 1));
      ClusterVotes part = ClusterVotes.of(
          Arrays.copyOfRange(cluster, from, to), Arrays.copyOfRange(candidate, from, to), candidates);
      merged = rnd.nextBoolean() ? merged.merge(part) : part.merge(merged);
      from = to;
    }
    assertThat(merged).isEqualTo(ClusterVotes.of(cluster, candidate, candidates));
    long[][] got = new long[clusters][candidates];
    for (int i = 0; i < merged.pairs(); i++) {
      got[merged.cluster(i)][merged.candidate(i)] += merged.count(i);
    }
    assertThat(got).isDeepEqualTo(expected);
  }
}
