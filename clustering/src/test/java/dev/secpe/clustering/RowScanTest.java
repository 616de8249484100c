package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The arg-max scans against plain loops written out here: the same two largest values, the same
 * first position of the maximum and the same collected columns, for any length (vector tails
 * included), offset, threshold, ties and infinities, on arrays and (a provided scan) in place on
 * direct buffers. Here the scalar scan only; secpe-kernel-openblas runs this class from this
 * module's test jar with its Vector API scan provided.
 */
class RowScanTest {

  /**
   * Whether a tile scan is provided (secpe-kernel-openblas on the class path), this JDK's incubating
   * Vector API is present and it has the in-place buffer loads the vector scan uses ({@code
   * FloatVector.fromByteBuffer}: JDK 17 has it, JDK 25 no longer does).
   */
  static boolean vectorScanRuns() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()
        || !java.util.ServiceLoader.load(dev.secpe.clustering.spi.TileScan.Provider.class)
            .iterator().hasNext()) {
      return false;
    }
    try {
      Class.forName("jdk.incubator.vector.FloatVector").getMethod("fromByteBuffer",
          Class.forName("jdk.incubator.vector.VectorSpecies"), java.nio.ByteBuffer.class, int.class,
          java.nio.ByteOrder.class);
      return true;
    } catch (ReflectiveOperationException | LinkageError e) {
      return false;
    }
  }

  /** The scalar scan, and the provided (Vector API) scan where it runs on this JDK. */
  static List<RowScan> scans() {
    List<RowScan> l = new ArrayList<>();
    l.add(ScalarRowScan.INSTANCE);
    if (vectorScanRuns()) {
      l.add(RowScan.provided());
    }
    return l;
  }

  private static float value(float[] src, int off, int j, boolean l2, float[] sqf, int j0) {
    return l2 ? 2f * src[off + j] - sqf[j0 + j] : src[off + j];
  }

  @Property(tries = 300)
  void maxAndCollectMatchPlainLoops(
      @ForAll @IntRange(min = 1, max = 100) int w,
      @ForAll @IntRange(min = 0, max = 9) int off,
      @ForAll @IntRange(min = 0, max = 5) int j0,
      @ForAll boolean l2,
      @ForAll @IntRange(min = 0, max = 3) int special,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] src = new float[off + w + 3];
    float[] sqf = new float[j0 + w + 1];
    for (int i = 0; i < src.length; i++) {
      src[i] = rnd.nextInt(4) == 0 ? rnd.nextInt(3) - 1 : (float) rnd.nextGaussian();
    }
    for (int i = 0; i < sqf.length; i++) {
      sqf[i] = (float) Math.abs(rnd.nextGaussian());
    }
    if (w > 0 && special > 0) {
      float[] specials = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f};
      src[off + rnd.nextInt(w)] = specials[special - 1];
    }
    if (rnd.nextInt(3) == 0) { // a planted tie of the maximum or a copy of a value
      src[off + rnd.nextInt(w)] = src[off + rnd.nextInt(w)];
    }
    float expected = Float.NEGATIVE_INFINITY;
    int first = -1;
    for (int j = 0; j < w; j++) {
      float v = value(src, off, j, l2, sqf, j0);
      if (v > expected || first < 0 && v == expected) {
        expected = v;
        first = j;
      }
    }
    float second = Float.NEGATIVE_INFINITY; // the largest value at any other position
    for (int j = 0; j < w; j++) {
      if (j != first) {
        second = Math.max(second, value(src, off, j, l2, sqf, j0));
      }
    }
    double thr = expected - rnd.nextDouble() * 2;
    if (rnd.nextInt(5) == 0) {
      thr = Math.nextDown((double) expected); // between two floats: the compare must stay exact
    }
    List<Integer> idx = new ArrayList<>();
    for (int j = 0; j < w; j++) {
      if (value(src, off, j, l2, sqf, j0) >= thr) {
        idx.add(j0 + j);
      }
    }
    for (RowScan scan : scans()) {
      float[] top = new float[2];
      int pos = scan.top2(src, off, w, l2, sqf, j0, top);
      assertThat(top[0] + 0f).as(scan.name()).isEqualTo(expected + 0f); // -0 and +0 alike
      assertThat(top[1] + 0f).as(scan.name()).isEqualTo(second + 0f);
      int found = pos >= 0 ? pos : scan.indexOf(src, off, w, l2, sqf, j0, top[0]);
      assertThat(value(src, off, found, l2, sqf, j0) + 0f).isEqualTo(expected + 0f);
      assertThat(scan.indexOf(src, off, w, l2, sqf, j0, top[0])).as(scan.name()).isEqualTo(
          expected == 0f ? zeroFirst(src, off, w, l2, sqf, j0) : first);
      if (scan.readsBuffers()) { // the same row read in place from a direct buffer
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocateDirect(4 * (src.length + 1))
            .order(java.nio.ByteOrder.nativeOrder());
        for (int i = 0; i < src.length; i++) {
          buf.putFloat(4 * (i + 1), src[i]);
        }
        float[] top2 = new float[2];
        int p2 = scan.top2(buf, 4 * (off + 1), w, l2, sqf, j0, top2);
        // the same values, -0 and +0 alike as above (a lane-wise max may keep either zero: CI drew
        // a row whose second value was 0.0 from the array and -0.0 from the buffer)
        assertThat(top2[0] + 0f).as(scan.name() + " in place").isEqualTo(top[0] + 0f);
        assertThat(top2[1] + 0f).as(scan.name() + " in place").isEqualTo(top[1] + 0f);
        // a position found on the way is the first maximum's (else indexOf finds it)
        int first2 = scan.indexOf(buf, 4 * (off + 1), w, l2, sqf, j0, top[0]);
        assertThat(p2 < 0 || p2 == first2).as("position %d vs %d", p2, first2).isTrue();
        assertThat(scan.indexOf(buf, 4 * (off + 1), w, l2, sqf, j0, top[0]))
            .isEqualTo(scan.indexOf(src, off, w, l2, sqf, j0, top[0]));
      }
      int[] outIdx = new int[w + 2];
      float[] outVal = new float[w + 2];
      outIdx[0] = -7;
      int end = scan.collect(src, off, w, l2, sqf, j0, thr, outIdx, outVal, 1);
      assertThat(outIdx[0]).isEqualTo(-7); // appends after 'at'
      assertThat(end - 1).as(scan.name()).isEqualTo(idx.size());
      for (int q = 0; q < idx.size(); q++) {
        assertThat(outIdx[1 + q]).isEqualTo(idx.get(q));
        assertThat(outVal[1 + q]).isEqualTo(value(src, off, idx.get(q) - j0, l2, sqf, j0));
      }
    }
  }

  /**
   * The column-major scan (one pass over a tile whose rows are B's columns) gives, for every row
   * of any range, the values and first position that plain loops over that row give: any row
   * count and range (vector lanes and tails), ties, infinities and -0.
   */
  @Property(tries = 300)
  void columnMajorTop2MatchesPlainLoops(
      @ForAll @IntRange(min = 1, max = 40) int w,
      @ForAll @IntRange(min = 1, max = 37) int rows,
      @ForAll @IntRange(min = 0, max = 5) int j0,
      @ForAll boolean l2,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int r0 = rnd.nextInt(rows);
    int r1 = r0 + 1 + rnd.nextInt(rows - r0);
    float[][] byRow = new float[rows][w];
    float[] specials = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f};
    for (float[] row : byRow) {
      for (int j = 0; j < w; j++) {
        row[j] = rnd.nextInt(4) == 0 ? rnd.nextInt(3) - 1 : (float) rnd.nextGaussian();
        if (rnd.nextInt(40) == 0) {
          row[j] = specials[rnd.nextInt(specials.length)];
        }
      }
      if (rnd.nextInt(3) == 0) { // a planted tie of the maximum or a copy of a value
        row[rnd.nextInt(w)] = row[rnd.nextInt(w)];
      }
    }
    float[] sqf = new float[j0 + w + 1];
    for (int i = 0; i < sqf.length; i++) {
      sqf[i] = (float) Math.abs(rnd.nextGaussian());
    }
    java.nio.ByteBuffer tile = java.nio.ByteBuffer.allocateDirect(4 * w * rows)
        .order(java.nio.ByteOrder.nativeOrder());
    for (int j = 0; j < w; j++) {
      for (int r = 0; r < rows; r++) {
        tile.putFloat(4 * (j * rows + r), byRow[r][j]);
      }
    }
    for (RowScan scan : scans()) {
      float[] max = new float[rows];
      float[] second = new float[rows];
      int[] pos = new int[rows];
      java.util.Arrays.fill(pos, -5); // rows outside [r0, r1) must stay untouched
      scan.columnsTop2(tile, rows, r0, r1, w, l2, sqf, j0, max, second, pos);
      for (int r = 0; r < rows; r++) {
        if (r < r0 || r >= r1) {
          assertThat(pos[r]).as("row %d outside [%d, %d)", r, r0, r1).isEqualTo(-5);
          continue;
        }
        float expected = Float.NEGATIVE_INFINITY;
        int first = -1;
        for (int j = 0; j < w; j++) {
          float v = value(byRow[r], 0, j, l2, sqf, j0);
          if (v > expected) {
            expected = v;
            first = j;
          }
        }
        float runnerUp = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < w; j++) {
          if (j != first) {
            runnerUp = Math.max(runnerUp, value(byRow[r], 0, j, l2, sqf, j0));
          }
        }
        assertThat(max[r] + 0f).as("%s row %d max", scan.name(), r).isEqualTo(expected + 0f);
        assertThat(second[r] + 0f).as("%s row %d second", scan.name(), r)
            .isEqualTo(runnerUp + 0f);
        assertThat(pos[r]).as("%s row %d position", scan.name(), r).isEqualTo(first);
      }
    }
  }

  /** The first position whose value compares equal to 0 (-0 and +0 alike). */
  private static int zeroFirst(float[] src, int off, int w, boolean l2, float[] sqf, int j0) {
    for (int j = 0; j < w; j++) {
      if (value(src, off, j, l2, sqf, j0) == 0f) {
        return j;
      }
    }
    return -1;
  }

  /**
   * The vector scan is chosen exactly where it runs: provided, with the module, on a JDK whose
   * incubator API has its buffer loads (17), not on one that lacks them (25), where choosing it
   * failed every kernel call with NoSuchMethodError.
   */
  @Test
  void preferredIsTheVectorScanExactlyWhereItRuns() {
    assertThat(RowScan.preferred().name()).startsWith(vectorScanRuns() ? "vector-" : "scalar");
  }
}
