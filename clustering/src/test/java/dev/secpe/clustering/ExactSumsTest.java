package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link ExactSums} against an independent reference: the float values summed in {@link
 * BigDecimal} (exact), rounded once to a double by {@link BigDecimal#doubleValue()}.
 */
class ExactSumsTest {

  /** Floats of every scale: normal, tiny, subnormal, huge, both signs, and zeros. */
  private static float[] values(SplittableRandom rnd, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      switch (rnd.nextInt(6)) {
        case 0 -> v[i] = (float) (rnd.nextDouble() * 2 - 1);
        case 1 -> v[i] = Float.intBitsToFloat(rnd.nextInt(1, 0x800000)) * (rnd.nextBoolean() ? 1 : -1);
        case 2 -> v[i] = (float) Math.scalb(rnd.nextDouble() - 0.5, rnd.nextInt(-140, 126));
        case 3 -> v[i] = rnd.nextBoolean() ? Float.MAX_VALUE : -Float.MAX_VALUE;
        case 4 -> v[i] = rnd.nextBoolean() ? 0f : -0f;
        default -> v[i] = (float) (rnd.nextGaussian() * 1e-3);
      }
    }
    return v;
  }

  private static double reference(float[] v) {
    BigDecimal s = BigDecimal.ZERO;
    for (float x : v) {
      s = s.add(new BigDecimal(x), MathContext.UNLIMITED);
    }
    return s.doubleValue();
  }

  /** The sum equals the exact sum rounded once, for values of every scale, with cancellation. */
  @Property(tries = 300)
  void equalsTheExactSumRoundedOnce(
      @ForAll @IntRange(min = 0, max = 200) int n, @ForAll long seed) {
    float[] v = values(new SplittableRandom(seed), n);
    ExactSums s = new ExactSums(1);
    for (float x : v) {
      s.add(0, x);
    }
    assertThat(s.value(0)).isEqualTo(reference(v));
  }

  /**
   * Any split into parts, each summed apart in any order and merged in any order, gives the same
   * bits as one pass: what a distributed run relies on.
   */
  @Property(tries = 200)
  void partitionAndOrderDoNotMatter(
      @ForAll @IntRange(min = 1, max = 300) int n,
      @ForAll @IntRange(min = 1, max = 9) int parts,
      @ForAll @IntRange(min = 1, max = 4) int length,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] v = values(rnd, n * length);
    ExactSums whole = new ExactSums(length);
    for (int i = 0; i < n; i++) {
      whole.addRow(0, v, i * length, length);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(seed));
    List<ExactSums> partial = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      partial.add(new ExactSums(length));
    }
    for (int i : order) {
      partial.get(rnd.nextInt(parts)).addRow(0, v, i * length, length);
    }
    Collections.shuffle(partial, new Random(seed + 1));
    ExactSums merged = new ExactSums(length);
    for (ExactSums p : partial) {
      merged.merge(p);
    }
    for (int j = 0; j < length; j++) {
      assertThat(Double.doubleToRawLongBits(merged.value(j))).isEqualTo(Double.doubleToRawLongBits(whole.value(j)));
      float[] column = new float[n];
      for (int i = 0; i < n; i++) {
        column[i] = v[i * length + j];
      }
      assertThat(whole.value(j)).isEqualTo(reference(column));
    }
  }

  private static ExactSums roundTrip(ExactSums s) throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(s);
    }
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      return (ExactSums) in.readObject();
    }
  }

  /**
   * Serialized (as a Spark partition's aggregate is) and read back, sums of values of every scale
   * and sign keep their exact value: the same bits, alone and after further additions and merges.
   */
  @Property(tries = 200)
  void serializationKeepsEverySumExactly(
      @ForAll @IntRange(min = 0, max = 120) int n,
      @ForAll @IntRange(min = 1, max = 5) int length,
      @ForAll long seed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] v = values(rnd, n * length);
    ExactSums s = new ExactSums(length);
    for (int i = 0; i < n; i++) {
      s.addRow(0, v, i * length, length);
    }
    float[] more = values(rnd, length);
    ExactSums back = roundTrip(s);
    assertThat(back.values()).isEqualTo(s.values());
    s.addRow(0, more, 0, length);
    back.addRow(0, more, 0, length);
    back.merge(roundTrip(s));
    s.merge(s.length() == 0 ? s : roundTrip(s));
    for (int j = 0; j < length; j++) {
      assertThat(Double.doubleToRawLongBits(back.value(j))).isEqualTo(Double.doubleToRawLongBits(s.value(j)));
    }
  }

  /**
   * The serial form keeps only the limbs a sum uses: 768,000 sums of unit-vector coordinates
   * (K = 2,000 centres, d = 384, what a Spark partition sends per k-means step) take under 14 MB,
   * where nine longs a sum would take 55 MB.
   */
  @Test
  void theSerialFormOfSmallSumsIsCompact() throws Exception {
    SplittableRandom rnd = new SplittableRandom(3);
    int length = 2_000 * 384;
    ExactSums s = new ExactSums(length);
    for (int r = 0; r < 20; r++) {
      for (int i = 0; i < length; i++) {
        s.add(i, (float) (rnd.nextGaussian() / Math.sqrt(384)));
      }
    }
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(s);
    }
    assertThat(bytes.size()).isLessThan(14_000_000);
    assertThat(roundTrip(s).values()).isEqualTo(s.values());
  }

  /** A sum that naive double accumulation gets wrong: 1e30f + many ones - 1e30f. */
  @Test
  void keepsWhatDoubleAccumulationLoses() {
    ExactSums s = new ExactSums(1);
    double naive = 0;
    s.add(0, 1e30f);
    naive += 1e30f;
    for (int i = 0; i < 1000; i++) {
      s.add(0, 1f);
      naive += 1f;
    }
    s.add(0, -1e30f);
    naive += -1e30f;
    assertThat(naive).isNotEqualTo(1000.0);
    assertThat(s.value(0)).isEqualTo(1000.0);
  }

  /** Many additions of the largest float cross the carry-propagation point without overflow. */
  @Test
  void manyLargeValuesStayExact() {
    ExactSums s = new ExactSums(1);
    int n = 5_000;
    for (int i = 0; i < n; i++) {
      s.add(0, Float.MAX_VALUE);
    }
    assertThat(s.value(0)).isEqualTo(new BigDecimal(Float.MAX_VALUE).multiply(BigDecimal.valueOf(n)).doubleValue());
  }

  @Test
  void refusesNonFiniteValuesAndBadShapes() {
    ExactSums s = new ExactSums(2);
    assertThatThrownBy(() -> s.add(0, Float.NaN)).hasMessageContaining("values must be finite, got NaN");
    assertThatThrownBy(() -> s.add(1, Float.NEGATIVE_INFINITY)).hasMessageContaining("got -Infinity");
    assertThatThrownBy(() -> s.add(2, 1f)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new ExactSums(-1)).hasMessageContaining("got -1");
    assertThatThrownBy(() -> s.merge(new ExactSums(3))).hasMessageContaining("same length to merge, got 2 and 3");
    assertThat(s.toString()).isEqualTo("ExactSums[2 sums]");
  }

  /**
   * Aggregates of any split of the rows merge into the aggregate of all rows, bit for bit; and
   * the counts and sums equal a brute-force assignment (nearest normalised centre by exact dot
   * product, sums in BigDecimal).
   */
  @Property(tries = 40)
  void clusterAggregatesMergeExactly(
      @ForAll @IntRange(min = 1, max = 60) int m,
      @ForAll @IntRange(min = 1, max = 6) int k,
      @ForAll @IntRange(min = 1, max = 12) int d,
      @ForAll @IntRange(min = 1, max = 7) int parts,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] rows = new float[m * d];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (float) rnd.nextGaussian();
    }
    rows[0] = 1f; // never a zero row
    for (int i = 0; i < m; i++) {
      rows[i * d] += 1e-3f;
    }
    float[] centres = new float[k * d];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = (float) rnd.nextGaussian();
    }
    ClusterAggregator agg =
        ClusterAggregator.of(Metric.COSINE, Embeddings.ofFlat(k, d, centres), 1.0, Backend.JAVA, 1);
    ClusterAggregate whole = agg.aggregate(Embeddings.ofFlat(m, d, rows));
    ClusterAggregate merged = new ClusterAggregate(k, d);
    int from = 0;
    for (int p = 0; p < parts; p++) {
      int to = p == parts - 1 ? m : Math.min(m, from + rnd.nextInt(0, m + 1));
      float[] part = java.util.Arrays.copyOfRange(rows, from * d, to * d);
      // An empty partition contributes the empty aggregate.
      merged.merge(to == from ? new ClusterAggregate(k, d) : agg.aggregate(Embeddings.ofFlat(to - from, d, part)));
      from = to;
    }
    assertThat(merged.sums()).isEqualTo(whole.sums());
    long total = 0;
    for (int c = 0; c < k; c++) {
      assertThat(merged.count(c)).isEqualTo(whole.count(c));
      total += whole.count(c);
    }
    assertThat(total).isEqualTo(m);
    // Brute force: each row normalised (as the aggregator does, in float) goes to the centre of
    // largest cosine; ties are not expected with Gaussian data.
    BigDecimal[] ref = new BigDecimal[k * d];
    java.util.Arrays.fill(ref, BigDecimal.ZERO);
    float[] normalised = agg.centreData();
    for (int i = 0; i < m; i++) {
      double norm = 0;
      for (int j = 0; j < d; j++) {
        norm += (double) rows[i * d + j] * rows[i * d + j];
      }
      float[] x = new float[d];
      for (int j = 0; j < d; j++) {
        x[j] = (float) (rows[i * d + j] * (1.0 / Math.sqrt(norm)));
      }
      int best = 0;
      double bestDot = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < k; c++) {
        double dot = 0;
        for (int j = 0; j < d; j++) {
          dot += (double) x[j] * normalised[c * d + j];
        }
        if (dot > bestDot) {
          bestDot = dot;
          best = c;
        }
      }
      for (int j = 0; j < d; j++) {
        ref[best * d + j] = ref[best * d + j].add(new BigDecimal(x[j]));
      }
    }
    for (int i = 0; i < k * d; i++) {
      assertThat(whole.sums()[i]).isCloseTo(ref[i].doubleValue(), org.assertj.core.data.Offset.offset(1e-5));
    }
  }
}
