package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Kernel properties over random shapes, block sizes, thread counts and backends. */
class NearestNeighboursPropertiesTest {

  /**
   * Top-1 equals the independent brute force exactly, for any shape, metric, backend ({@link
   * NearestNeighboursTest#NATIVE}: secpe-kernel-nd4j runs this class on ND4J), block
   * size, column chunk, thread count, split of a block's scan and scan implementation; half the
   * draws use coarse integer data full of exact ties.
   */
  @Property(tries = 80)
  void top1EqualsBruteForce(
      @ForAll @IntRange(min = 1, max = 90) int m,
      @ForAll @IntRange(min = 1, max = 70) int n,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 0, max = 50) int blockRows,
      @ForAll @IntRange(min = 1, max = 3) int threads,
      @ForAll @IntRange(min = 0, max = 30) int chunkColumns,
      @ForAll @IntRange(min = 0, max = 3) int parts,
      @ForAll boolean scalar,
      @ForAll Metric metric,
      @ForAll boolean coarse,
      @ForAll boolean nativeBackend,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[][] a = data(rnd, m, d, coarse);
    float[][] b = data(rnd, n, d, coarse);
    if (n > 1 && rnd.nextBoolean()) {
      b[n - 1] = b[0].clone(); // a planted duplicate
    }
    java.util.List<RowScan> scans = RowScanTest.scans();
    NearestNeighbours nn = NearestNeighbours.builder().metric(metric)
        .backend(nativeBackend ? NearestNeighboursTest.NATIVE : Backend.JAVA).blockRows(blockRows).threads(threads)
        .chunkColumns(chunkColumns).parts(parts)
        .scan(scalar ? scans.get(0) : scans.get(scans.size() - 1))
        .build();
    assertThat(nn.top1(Embeddings.of(a), Embeddings.of(b)).index())
        .containsExactly(BruteForce.top1(metric, a, b));
  }

  /** Top-k is a prefix-consistent ranking: its first entry is top-1, entries are distinct. */
  @Property(tries = 40)
  void topKStartsWithTop1AndHasDistinctEntries(
      @ForAll @IntRange(min = 1, max = 40) int m,
      @ForAll @IntRange(min = 1, max = 30) int n,
      @ForAll @IntRange(min = 1, max = 12) int d,
      @ForAll @IntRange(min = 1, max = 30) int k,
      @ForAll @IntRange(min = 0, max = 12) int chunkColumns,
      @ForAll Metric metric,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[][] a = data(rnd, m, d, true);
    float[][] b = data(rnd, n, d, true);
    int kk = Math.min(k, n);
    NearestNeighbours nn = NearestNeighbours.builder().metric(metric).backend(Backend.JAVA)
        .chunkColumns(chunkColumns).build();
    int[][] top = nn.topK(Embeddings.of(a), Embeddings.of(b), kk).index();
    int[] one = nn.top1(Embeddings.of(a), Embeddings.of(b)).index();
    for (int i = 0; i < m; i++) {
      assertThat(top[i][0]).isEqualTo(one[i]);
      assertThat(top[i]).doesNotHaveDuplicates().hasSize(kk);
      assertThat(top[i]).containsExactly(java.util.Arrays.copyOf(BruteForce.ranking(metric, a, b, i), kk));
    }
  }

  private static float[][] data(SplittableRandom rnd, int rows, int d, boolean coarse) {
    float[][] x = new float[rows][d];
    for (float[] r : x) {
      for (int j = 0; j < d; j++) {
        r[j] = coarse ? rnd.nextInt(3) - 1 : (float) NearestNeighboursTest.nextGaussian(rnd);
      }
      r[rnd.nextInt(d)] = 1; // never a zero row (cosine)
    }
    return x;
  }
}
