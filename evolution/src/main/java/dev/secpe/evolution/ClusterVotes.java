package dev.secpe.evolution;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The exact votes of SecPE's secret-free records ({@code SecPE.Builder.secretFreeVotes}), before
 * anything is done with them: how many records of each cluster voted for each candidate, one entry
 * per (cluster, candidate) pair that got a vote, in ascending (cluster, candidate) order. Counts
 * are integers, so the votes of disjoint parts of the records {@link #merge} into exactly the votes
 * of the whole, whatever the partitioning (what {@link PrivateStore#secretFreeVotes} relies on).
 *
 * <p>Votes of records that hold no detected secret: public data under the split's guarantee, but
 * still counts of private records; {@link #toString()} shows the shape only. Immutable and
 * serializable, so that a distributed store can send partial votes to its driver.
 */
public final class ClusterVotes implements Serializable {

  private static final long serialVersionUID = 1L;

  private static final ClusterVotes NONE = new ClusterVotes(0, new long[0], new long[0]);

  private final int candidates;
  /** {@code cluster * candidates + candidate}, ascending. */
  private final long[] keys;
  private final long[] counts;

  private ClusterVotes(int candidates, long[] keys, long[] counts) {
    this.candidates = candidates;
    this.keys = keys;
    this.counts = counts;
  }

  /** No votes (no record voted). */
  public static ClusterVotes none() {
    return NONE;
  }

  /**
   * The votes of records whose i-th is in cluster {@code cluster[i]} and voted for candidate
   * {@code candidate[i]} (below {@code candidates}).
   *
   * @throws IllegalArgumentException if the arrays differ in length, or an index is negative or a
   *     candidate not below {@code candidates}
   */
  public static ClusterVotes of(int[] cluster, int[] candidate, int candidates) {
    if (cluster.length != candidate.length) {
      throw new IllegalArgumentException(
          "one cluster and one candidate per record, got " + cluster.length + " clusters and " + candidate.length
              + " candidates");
    }
    if (cluster.length == 0) {
      return NONE;
    }
    long[] key = new long[cluster.length];
    for (int i = 0; i < key.length; i++) {
      if (cluster[i] < 0 || candidate[i] < 0 || candidate[i] >= candidates) {
        throw new IllegalArgumentException(
            "record " + i + " has cluster " + cluster[i] + " and candidate " + candidate[i] + ", outside [0, "
                + candidates + ")");
      }
      key[i] = (long) cluster[i] * candidates + candidate[i];
    }
    Arrays.sort(key);
    int distinct = 0;
    long[] count = new long[key.length];
    for (int i = 0; i < key.length; i++) {
      if (distinct > 0 && key[distinct - 1] == key[i]) {
        count[distinct - 1]++;
      } else {
        key[distinct] = key[i];
        count[distinct++] = 1;
      }
    }
    return new ClusterVotes(candidates, Arrays.copyOf(key, distinct), Arrays.copyOf(count, distinct));
  }

  /**
   * The votes of both (exactly: counts of the same pair add up). Either may be {@link #none()}.
   *
   * @throws IllegalArgumentException if both have votes over different numbers of candidates
   */
  public ClusterVotes merge(ClusterVotes other) {
    if (other.keys.length == 0) {
      return this;
    }
    if (keys.length == 0) {
      return other;
    }
    if (other.candidates != candidates) {
      throw new IllegalArgumentException(
          "votes must be over the same candidates to merge, got " + candidates + " and " + other.candidates);
    }
    long[] key = new long[keys.length + other.keys.length];
    long[] count = new long[key.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < keys.length || j < other.keys.length) {
      if (j == other.keys.length || (i < keys.length && keys[i] < other.keys[j])) {
        key[n] = keys[i];
        count[n++] = counts[i++];
      } else if (i == keys.length || other.keys[j] < keys[i]) {
        key[n] = other.keys[j];
        count[n++] = other.counts[j++];
      } else {
        key[n] = keys[i];
        count[n++] = counts[i++] + other.counts[j++];
      }
    }
    return new ClusterVotes(candidates, Arrays.copyOf(key, n), Arrays.copyOf(count, n));
  }

  /** The number of (cluster, candidate) pairs that got a vote. */
  public int pairs() {
    return keys.length;
  }

  /** The cluster of pair {@code i}. */
  public int cluster(int i) {
    return (int) (keys[i] / candidates);
  }

  /** The candidate of pair {@code i}. */
  public int candidate(int i) {
    return (int) (keys[i] % candidates);
  }

  /** How many records of {@link #cluster(int)} voted for {@link #candidate(int)}. */
  public long count(int i) {
    return counts[i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterVotes v && (keys.length == 0 ? v.keys.length == 0
        : candidates == v.candidates && Arrays.equals(keys, v.keys) && Arrays.equals(counts, v.counts));
  }

  @Override
  public int hashCode() {
    return keys.length == 0 ? 0 : 31 * Arrays.hashCode(keys) + Arrays.hashCode(counts);
  }

  /** The number of pairs only: the counts are statistics of private records. */
  @Override
  public String toString() {
    return "ClusterVotes[" + keys.length + " pairs]";
  }
}
