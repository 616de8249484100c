package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterAggregator#nearest}: each row's centre as {@link ClusterAggregator#aggregate}
 * assigns it, the same for any split of the rows into parts (what a distributed store relies on).
 */
class ClusterAggregatorNearestTest {

  /** A source of no rows (an empty partition). */
  private static final RowSource NO_ROWS = new RowSource() {
    @Override
    public long rows() {
      return 0;
    }

    @Override
    public int dim() {
      return 2;
    }

    @Override
    public void read(long first, int count, float[] dst) {
      throw new AssertionError("nothing to read");
    }
  };

  @Test
  void aHandWorkedCaseWithATie() {
    // Centres (1, 0), (0, 1) and (1, 0) again; rows (3, 1) -> 0, (1, 2) -> 1, (-1, 5) -> 1,
    // (2, -0.5) -> 0: the second copy of (1, 0) ties with the first and never wins.
    float[] centres = {1, 0, 0, 1, 1, 0};
    float[] rows = {3, 1, 1, 2, -1, 5, 2, -0.5f};
    ClusterAggregator agg =
        ClusterAggregator.of(Metric.COSINE, Embeddings.ofFlat(3, 2, centres), 1.0, Backend.JAVA, 1);
    assertThat(agg.nearest(Embeddings.ofFlat(4, 2, rows))).containsExactly(0, 1, 1, 0);
    assertThat(agg.nearest(NO_ROWS)).isEmpty();
    assertThatThrownBy(() -> agg.nearest(Embeddings.ofFlat(1, 3, new float[] {1, 2, 3})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rows.dim must equal the centres' dim, got rows.dim=3 centres.dim=2");
  }

  @Property(tries = 60)
  void agreesWithBruteForceAndTheAggregateInAnySplit(
      @ForAll @IntRange(min = 1, max = 300) int m,
      @ForAll @IntRange(min = 1, max = 9) int k,
      @ForAll @IntRange(min = 1, max = 16) int d,
      @ForAll @IntRange(min = 1, max = 5) int parts,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] rows = new float[m * d];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (float) rnd.nextGaussian();
    }
    for (int i = 0; i < m; i++) {
      rows[i * d] += 1e-3f; // never a zero row
    }
    float[] centres = new float[k * d];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = (float) rnd.nextGaussian();
    }
    ClusterAggregator agg =
        ClusterAggregator.of(Metric.COSINE, Embeddings.ofFlat(k, d, centres), 1.0, Backend.JAVA, 1);
    int[] nearest = agg.nearest(Embeddings.ofFlat(m, d, rows));

    // Independent: each row against each centre, both normalised, the largest cosine (lowest index
    // on ties; none expected with Gaussian data).
    float[][] a = new float[m][];
    float[][] b = new float[k][];
    for (int i = 0; i < m; i++) {
      a[i] = Arrays.copyOfRange(rows, i * d, (i + 1) * d);
    }
    for (int c = 0; c < k; c++) {
      b[c] = Arrays.copyOfRange(centres, c * d, (c + 1) * d);
    }
    assertThat(nearest).containsExactly(BruteForce.top1(Metric.COSINE, a, b));

    // The aggregate counts what nearest assigns.
    ClusterAggregate whole = agg.aggregate(Embeddings.ofFlat(m, d, rows));
    long[] counted = new long[k];
    for (int c : nearest) {
      counted[c]++;
    }
    for (int c = 0; c < k; c++) {
      assertThat(whole.count(c)).isEqualTo(counted[c]);
    }

    // Parts give the slices of the whole.
    int from = 0;
    for (int p = 0; p < parts; p++) {
      int to = p == parts - 1 ? m : Math.min(m, from + rnd.nextInt(0, m + 1));
      if (to > from) {
        float[] part = Arrays.copyOfRange(rows, from * d, to * d);
        assertThat(agg.nearest(Embeddings.ofFlat(to - from, d, part)))
            .containsExactly(Arrays.copyOfRange(nearest, from, to));
      }
      from = to;
    }
  }

  @Test
  void theAggregateIsTheSameOnAnyNumberOfThreads() {
    // Enough rows that a block's exact sums are added over several accumulators, merged at the
    // end: counts and sums must be those of one thread, bit for bit.
    int m = 20_000;
    int k = 7;
    int d = 128;
    SplittableRandom rnd = new SplittableRandom(52);
    float[] rows = new float[m * d];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (float) rnd.nextGaussian();
    }
    float[] centres = new float[k * d];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = (float) rnd.nextGaussian();
    }
    ClusterAggregate one = ClusterAggregator.of(Metric.COSINE, Embeddings.ofFlat(k, d, centres), 1.0, Backend.JAVA, 1)
        .aggregate(Embeddings.ofFlat(m, d, rows));
    ClusterAggregate four = ClusterAggregator.of(Metric.COSINE, Embeddings.ofFlat(k, d, centres), 1.0, Backend.JAVA, 4)
        .aggregate(Embeddings.ofFlat(m, d, rows));
    long total = 0;
    for (int c = 0; c < k; c++) {
      assertThat(four.count(c)).as("count %d", c).isEqualTo(one.count(c));
      total += four.count(c);
    }
    assertThat(total).isEqualTo(m);
    assertThat(Arrays.stream(four.sums()).mapToLong(Double::doubleToRawLongBits).toArray())
        .isEqualTo(Arrays.stream(one.sums()).mapToLong(Double::doubleToRawLongBits).toArray());
  }
}
