package dev.secpe.evolution.secpe;

import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.clustering.ClusterAggregator;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.evolution.PrivateStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The split's k-means of one label group's public part, its records that hold no secret (and the
 * public corpus's records where they join), computed where the records live: the private ones
 * never come to this JVM but for a sample, and every value it uses is exact and free of order, so
 * the in-memory store and a Spark store, with any partitioning, give the same clusters.
 *
 * <ol>
 *   <li>Seeding, drawn here as the sampling masks are: a uniform sample of {@code max(}{@value
 *       #SEED_SAMPLE}{@code , 3K)} rows of the public part (all of it when it is no larger), the
 *       secret-free ones' embeddings from the store ({@link PrivateStore#secretFreeEmbeddings}:
 *       public data under the split), clustered here by {@link KMeans}: k-means++ and Lloyd, with
 *       the run's restarts when the sample is the whole public part, once when it is a sample
 *       (k-means++ costs K x sample x d scalar products, 2,000 x 10,000 x 384 at N_syn = 2,000:
 *       about 10 s a restart on one core; the steps over the whole part follow anyway).
 *   <li>Lloyd steps on the whole public part, each one aggregate: the store's counts and exact
 *       sums of its secret-free records nearest each centre ({@link
 *       PrivateStore#secretFreeAggregate}), merged with the corpus rows'; a cluster's new centre is
 *       the direction of its sum (spherical k-means), an empty one keeps its centre. They stop when
 *       a step lowers the cost {@code sum (1 - cos)} by at most {@value #TOLERANCE} of it, when the
 *       centres stop changing, or after {@value #MAX_STEPS} steps; the clusters are the last step's
 *       (its centres and the counts of its assignment).
 *   <li>Clusters no record is nearest to (fewer distinct embeddings than K) are dropped.
 * </ol>
 *
 * <p>Where the public part is no larger than the sample, the seeding is {@link KMeans} on all of it
 * (what the split used before it ran on a store) and the steps only settle its centres on exact
 * sums. The cost of a step is one nearest-centre pass over the public part (a quarter of an Aug-PE
 * vote's work at K = N_syn and L = 3).
 */
final class SplitKMeans {

  /** The seeding's sample: at least this many rows of the public part (all of it where fewer). */
  static final int SEED_SAMPLE = 10_000;

  /** The most Lloyd steps over the whole public part. */
  static final int MAX_STEPS = 10;

  /** A step that lowers the cost by at most this fraction of it ends the steps. */
  static final double TOLERANCE = 1e-4;

  private SplitKMeans() {}

  /**
   * The clusters of a public part of {@code secretFree} (record indices in {@code store}, ascending)
   * and {@code corpus} (unit rows of public records; empty where the corpus does not join).
   *
   * @param k the clusters asked (at most the rows of the public part)
   * @param sampling draws the seeding's sample
   * @param kmeansSeed the seed of the seeding's k-means
   * @param restarts the seeding's k-means restarts when its sample is the whole public part
   */
  static LabelGroup.Clusters fit(
      PrivateStore store, int[] secretFree, EmbeddingMatrix corpus, int k, SplittableRandom sampling,
      long kmeansSeed, int restarts) {
    EmbeddingMatrix centres = seed(store, secretFree, corpus, k, sampling, kmeansSeed, restarts);
    Step step = Step.of(store, secretFree, corpus, centres);
    for (int s = 1; s < MAX_STEPS; s++) {
      EmbeddingMatrix next = step.meanDirections(centres);
      if (Arrays.equals(next.toFlatArray(), centres.toFlatArray())) {
        break;
      }
      Step after = Step.of(store, secretFree, corpus, next);
      double gain = step.cost - after.cost;
      centres = next;
      step = after;
      if (gain <= TOLERANCE * (step.cost + gain)) {
        break;
      }
    }
    return step.clusters(centres, k);
  }

  /** k-means on a uniform sample of the public part: the centres the steps start from. */
  private static EmbeddingMatrix seed(
      PrivateStore store, int[] secretFree, EmbeddingMatrix corpus, int k, SplittableRandom sampling,
      long kmeansSeed, int restarts) {
    int n = secretFree.length + corpus.rows();
    int[] sample = sample(n, Math.max(SEED_SAMPLE, 3 * k), sampling);
    int free = 0;
    while (free < sample.length && sample[free] < secretFree.length) {
      free++;
    }
    List<EmbeddingMatrix> parts = new ArrayList<>();
    if (free > 0) {
      int[] records = new int[free];
      for (int i = 0; i < free; i++) {
        records[i] = secretFree[sample[i]];
      }
      parts.add(store.secretFreeEmbeddings(records));
    }
    if (free < sample.length) {
      int[] rows = new int[sample.length - free];
      for (int i = free; i < sample.length; i++) {
        rows[i - free] = sample[i] - secretFree.length;
      }
      parts.add(corpus.selectRows(rows));
    }
    EmbeddingMatrix base = parts.size() == 1 ? parts.get(0) : EmbeddingMatrix.concat(parts);
    KMeansResult fitted = KMeans.builder()
        .k(k)
        .metric(Metric.COSINE)
        .seed(kmeansSeed)
        .restarts(sample.length == n ? restarts : 1)
        .build()
        .fit(base);
    return fitted.centres();
  }

  /**
   * {@code m} of {@code 0 .. n-1}, uniformly without replacement, ascending (Knuth's selection
   * sampling); all of them when {@code m >= n}.
   */
  static int[] sample(int n, int m, SplittableRandom rnd) {
    if (m >= n) {
      return java.util.stream.IntStream.range(0, n).toArray();
    }
    int[] out = new int[m];
    int chosen = 0;
    for (int i = 0; i < n && chosen < m; i++) {
      if (rnd.nextInt(n - i) < m - chosen) {
        out[chosen++] = i;
      }
    }
    return out;
  }

  /**
   * One Lloyd step's aggregate: per centre, how many secret-free records and corpus rows are
   * nearest to it, the exact sum of all of them, and the cost {@code sum (1 - cos)}.
   */
  private record Step(long[] free, long[] fromCorpus, double[] sums, double cost) {

    static Step of(PrivateStore store, int[] secretFree, EmbeddingMatrix corpus, EmbeddingMatrix centres) {
      int k = centres.rows();
      int d = centres.dimension();
      ClusterAggregate all = secretFree.length == 0
          ? new ClusterAggregate(k, d)
          : store.secretFreeAggregate(secretFree, centres);
      ClusterAggregate pub = corpus.rows() == 0
          ? new ClusterAggregate(k, d)
          : ClusterAggregator.of(Metric.COSINE, centres, 1.0).aggregate(RowSource.of(corpus));
      long[] free = new long[k];
      long[] fromCorpus = new long[k];
      for (int c = 0; c < k; c++) {
        free[c] = all.count(c);
        fromCorpus[c] = pub.count(c);
      }
      double[] sums = all.merge(pub).sums();
      all.clear();
      // sum_i (1 - x_i . c_k(i)) = n - sum_k c_k . S_k: from the exact sums, the same on any store.
      double cost = 0;
      for (int c = 0; c < k; c++) {
        double dot = 0;
        for (int j = 0; j < d; j++) {
          dot += centres.get(c, j) * sums[c * d + j];
        }
        cost += free[c] + fromCorpus[c] - dot;
      }
      return new Step(free, fromCorpus, sums, cost);
    }

    /** The next centres: each non-empty cluster's sum as a unit vector; the others unchanged. */
    EmbeddingMatrix meanDirections(EmbeddingMatrix centres) {
      int k = centres.rows();
      int d = centres.dimension();
      float[] next = centres.toFlatArray();
      for (int c = 0; c < k; c++) {
        double norm2 = 0;
        for (int j = 0; j < d; j++) {
          norm2 += sums[c * d + j] * sums[c * d + j];
        }
        if (free[c] + fromCorpus[c] == 0 || !(norm2 > 0)) {
          continue; // no record, or records that cancel out: no direction, keep the centre
        }
        double inv = 1.0 / Math.sqrt(norm2);
        for (int j = 0; j < d; j++) {
          next[c * d + j] = (float) (sums[c * d + j] * inv);
        }
      }
      return EmbeddingMatrix.ofFlat(k, d, next);
    }

    /** The clusters of this step's assignment against {@code centres}, the empty ones dropped. */
    LabelGroup.Clusters clusters(EmbeddingMatrix centres, int asked) {
      List<float[]> kept = new ArrayList<>();
      List<Integer> sizes = new ArrayList<>();
      List<Integer> corpusMembers = new ArrayList<>();
      for (int c = 0; c < centres.rows(); c++) {
        long size = free[c] + fromCorpus[c];
        if (size > 0) {
          kept.add(centres.row(c));
          sizes.add(Math.toIntExact(size));
          corpusMembers.add(Math.toIntExact(fromCorpus[c]));
        }
      }
      return new LabelGroup.Clusters(
          kept.isEmpty() ? EmbeddingMatrix.empty(centres.dimension()) : EmbeddingMatrix.of(kept.toArray(new float[0][])),
          sizes.stream().mapToInt(Integer::intValue).toArray(),
          corpusMembers.stream().mapToInt(Integer::intValue).toArray(),
          asked,
          asked - kept.size(),
          new int[0]);
    }
  }
}
