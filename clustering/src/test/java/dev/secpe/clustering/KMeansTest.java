package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class KMeansTest {

  /** Property: the inertia sequence never increases, for any data, k, metric and policy. */
  @Property(tries = 60)
  void inertiaNeverIncreases(
      @ForAll @IntRange(min = 2, max = 120) int n,
      @ForAll @IntRange(min = 1, max = 9) int d,
      @ForAll @IntRange(min = 1, max = 12) int k,
      @ForAll long seed,
      @ForAll Metric metric,
      @ForAll EmptyClusterPolicy policy,
      @ForAll KMeans.Seeding seeding) {
    if (policy == EmptyClusterPolicy.FAIL) {
      policy = EmptyClusterPolicy.KEEP_PREVIOUS_CENTRE;
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    float[][] x = new float[n][d];
    for (float[] r : x) {
      for (int j = 0; j < d; j++) {
        // Coarse values: many duplicate points and exact ties, the hard case for monotonicity.
        r[j] = rnd.nextInt(5) - 2 + (rnd.nextBoolean() ? 0.5f * rnd.nextInt(3) : 0f);
      }
      r[0] = r[0] == 0 && metric == Metric.COSINE ? 1 : r[0];
    }
    KMeansResult res = KMeans.builder()
        .k(Math.min(k, n)).metric(metric).seed(seed).maxIterations(30).tolerance(0)
        .emptyClusterPolicy(policy).seeding(seeding).backend(Backend.JAVA).threads(1)
        .build().fit(Embeddings.of(x));
    double[] h = res.inertiaPerIteration();
    for (int i = 1; i < h.length; i++) {
      assertThat(h[i]).as("inertia at iteration %d of %s", i, java.util.Arrays.toString(h))
          .isLessThanOrEqualTo(h[i - 1]);
    }
    assertThat(java.util.Arrays.stream(res.sizes()).sum()).isEqualTo(n);
    assertThat(java.util.Arrays.stream(h).allMatch(v -> v >= 0)).isTrue();
    // The reported final inertia is the cost of the reported centres and assignments,
    // recomputed here directly (|x - c|^2, or 1 - cos of normalised vectors).
    float[][] xs = metric == Metric.COSINE ? BruteForce.normalise(x) : x;
    float[][] cs = res.centres().toArray();
    int[] a = res.assignments();
    double direct = 0;
    double scale = 0;
    for (int i = 0; i < n; i++) {
      float[] c = cs[a[i]];
      if (metric == Metric.COSINE) {
        direct += Math.max(0, 1 - BruteForce.dot(xs[i], c));
        scale += 1000; // unit vectors rounded to float: |1 - cos| is exact only to ~1e-7
      } else {
        for (int j = 0; j < d; j++) {
          double diff = (double) xs[i][j] - c[j];
          direct += diff * diff;
        }
        scale += BruteForce.dot(xs[i], xs[i]) + BruteForce.dot(c, c);
      }
    }
    assertThat(res.inertia()).isCloseTo(direct, org.assertj.core.data.Offset.offset(1e-9 * scale + 1e-12));
  }

  static float[][] blobs(SplittableRandom rnd, int k, int perCluster, int d, double spread,
      int[] labels) {
    float[][] means = new float[k][d];
    for (int c = 0; c < k; c++) {
      for (int j = 0; j < d; j++) {
        means[c][j] = (float) (rnd.nextDouble(-1, 1) * 10);
      }
    }
    float[][] x = new float[k * perCluster][d];
    for (int i = 0; i < x.length; i++) {
      int c = i % k;
      labels[i] = c;
      for (int j = 0; j < d; j++) {
        x[i][j] = (float) (means[c][j] + spread * NearestNeighboursTest.nextGaussian(rnd));
      }
    }
    return x;
  }

  @Test
  void recoversWellSeparatedPlantedClusters() {
    for (Metric m : Metric.values()) {
      for (KMeans.Seeding s : new KMeans.Seeding[] {
          KMeans.Seeding.KMEANS_PLUS_PLUS, KMeans.Seeding.KMEANS_PARALLEL}) {
        SplittableRandom rnd = new SplittableRandom(42);
        int k = 6;
        int[] labels = new int[k * 80];
        float[][] x = blobs(rnd, k, 80, 16, 0.3, labels);
        KMeansResult res = KMeans.builder().k(k).metric(m).seed(7).restarts(4).seeding(s)
            .build().fit(Embeddings.of(x));
        // The partition must equal the planted one up to a relabelling (a bijection).
        Map<Integer, Integer> map = new HashMap<>();
        int[] a = res.assignments();
        for (int i = 0; i < a.length; i++) {
          Integer prev = map.putIfAbsent(labels[i], a[i]);
          assertThat(prev == null ? a[i] : prev).as("%s %s point %d", m, s, i).isEqualTo(a[i]);
        }
        assertThat(map.values()).doesNotHaveDuplicates().hasSize(k);
        assertThat(res.sizes()).containsOnly(80);
        assertThat(res.converged()).isTrue();
      }
    }
  }

  @Test
  void sameSeedSameResultAndRestartsKeepTheBest() {
    SplittableRandom rnd = new SplittableRandom(1);
    int[] labels = new int[300];
    Embeddings x = Embeddings.of(blobs(rnd, 5, 60, 8, 3.0, labels));
    KMeans km = KMeans.builder().k(5).seed(99).restarts(5).build();
    KMeansResult r1 = km.fit(x);
    KMeansResult r2 = km.fit(x);
    assertThat(r1.assignments()).containsExactly(r2.assignments());
    assertThat(r1.inertiaPerIteration()).containsExactly(r2.inertiaPerIteration());
    KMeansResult single = KMeans.builder().k(5).seed(99).restarts(1).build().fit(x);
    assertThat(r1.inertia()).isLessThanOrEqualTo(single.inertia()); // restart 0 is the same run
  }

  @Test
  void emptyClusterPolicies() {
    // 3 distinct locations, k = 4: the 4th k-means++ centre duplicates a location and stays empty.
    float[][] x = new float[30][];
    for (int i = 0; i < 30; i++) {
      x[i] = new float[] {i % 3, (i % 3) * 2f};
    }
    Embeddings e = Embeddings.of(x);
    KMeansResult keep = KMeans.builder().k(4).seed(3).build().fit(e);
    assertThat(keep.sizes()).contains(0);
    assertThat(keep.inertia()).isZero();
    assertThatThrownBy(() -> KMeans.builder().k(4).seed(3)
            .emptyClusterPolicy(EmptyClusterPolicy.FAIL).build().fit(e))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("became empty")
        .hasMessageContaining("emptyClusterPolicy=FAIL");
  }

  @Test
  void reseedFarthestFillsAnEmptyCluster() {
    // Two tight groups far apart plus one outlier; start k = 3 with an empty cluster by design:
    // the outlier is then the farthest point and must get its own centre.
    float[][] x = new float[41][];
    for (int i = 0; i < 20; i++) {
      x[i] = new float[] {0, i * 0.01f};
      x[20 + i] = new float[] {10, i * 0.01f};
    }
    x[40] = new float[] {5, 100};
    KMeansResult r = KMeans.builder().k(3).seed(11).restarts(3)
        .emptyClusterPolicy(EmptyClusterPolicy.RESEED_FARTHEST).build().fit(Embeddings.of(x));
    assertThat(r.sizes()).containsExactlyInAnyOrder(20, 20, 1);
  }

  /**
   * Property: on copies of a few random points (duplicates, as identical embeddings of repeated
   * texts give) k-means fills min(k, distinct points) clusters, whatever the policy can do: no
   * cluster beyond the distinct points can hold one. {@link KMeansResult#withoutEmptyClusters}
   * keeps exactly the filled ones, every point with the centre it had.
   */
  @Property(tries = 40)
  void copiesFillAsManyClustersAsDistinctPointsAndTheEmptyOnesCanBeDropped(
      @ForAll @IntRange(min = 1, max = 8) int directions,
      @ForAll @IntRange(min = 1, max = 12) int k,
      @ForAll Metric metric,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int d = 16;
    float[][] proto = new float[directions][d];
    for (float[] p : proto) {
      for (int j = 0; j < d; j++) {
        p[j] = (float) NearestNeighboursTest.nextGaussian(rnd);
      }
    }
    int n = 40;
    float[][] x = new float[n][];
    for (int i = 0; i < n; i++) {
      x[i] = proto[i % directions].clone();
    }
    KMeansResult res = KMeans.builder().k(k).metric(metric).seed(seed).build().fit(Embeddings.of(x));
    assertThat(res.emptyClusters()).isEqualTo(k - Math.min(k, directions));
    long filled = java.util.Arrays.stream(res.sizes()).filter(s -> s > 0).count();
    assertThat(filled).isEqualTo(Math.min(k, directions));
    KMeansResult kept = res.withoutEmptyClusters();
    assertThat(kept.k()).isEqualTo(Math.min(k, directions));
    assertThat(kept.sizes()).doesNotContain(0);
    assertThat(java.util.Arrays.stream(kept.sizes()).sum()).isEqualTo(n);
    // Every point keeps its centre: same row as before the drop, and the sizes count the points.
    int[] before = res.assignments();
    int[] after = kept.assignments();
    int[] count = new int[kept.k()];
    for (int i = 0; i < n; i++) {
      assertThat(kept.centres().row(after[i])).containsExactly(res.centres().row(before[i]));
      count[after[i]]++;
    }
    assertThat(count).containsExactly(kept.sizes());
    assertThat(kept.inertiaPerIteration()).containsExactly(res.inertiaPerIteration());
  }

  @Test
  void badInputIsRejectedNamingFieldAndValue() {
    Embeddings two = Embeddings.of(new float[][] {{1, 2}, {3, 4}});
    assertThatThrownBy(() -> KMeans.builder().k(3).seed(1).build().fit(two))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k=3 rows=2");
    assertThatThrownBy(() -> KMeans.builder().k(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k=0");
    assertThatThrownBy(() -> KMeans.builder().tolerance(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tolerance=NaN");
    assertThatThrownBy(() -> KMeans.builder().k(2).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("seed is required");
    assertThatThrownBy(() -> KMeans.builder().k(1).seed(1).metric(Metric.COSINE).build()
            .fit(Embeddings.of(new float[][] {{1, 2}, {0, 0}})))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data[1] = zero vector");
  }
}
