package dev.secpe.kernel.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.clustering.spi.TileScan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The device's scan, segments merged in order ({@link Top2Columns#scan}, the algorithm of the
 * CUDA kernel), gives exactly what the kernel's scalar scan gives on the same tile: the maximum,
 * the runner-up (the maximum itself where it occurs twice) and the first position of the
 * maximum, on tiles full of ties, -infinity and signed zeros, wider and narrower than the number
 * of segments.
 */
class Top2ColumnsTest {

  /** Values from a small set, so that ties within and across segments are the rule. */
  private static final float[] VALUES = {Float.NEGATIVE_INFINITY, -1f, -0f, 0f, 0.25f, 0.5f, 1f};

  @Property(tries = 400)
  void segmentsMergedInOrderEqualTheScalarScan(
      @ForAll @IntRange(min = 1, max = 70) int rows,
      @ForAll @IntRange(min = 1, max = 90) int w,
      @ForAll boolean l2,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int spread = 1 + rnd.nextInt(VALUES.length);
    float[] c = new float[rows * w];
    for (int i = 0; i < c.length; i++) {
      c[i] = VALUES[rnd.nextInt(spread)];
    }
    int j0 = rnd.nextInt(5);
    float[] sqf = new float[j0 + w];
    for (int j = 0; j < sqf.length; j++) {
      sqf[j] = rnd.nextInt(3) * 0.5f; // ties survive the L2 ranking too
    }
    float[] max = new float[rows];
    float[] second = new float[rows];
    int[] pos = new int[rows];
    Top2Columns.scan(c, rows, w, l2, sqf, j0, max, second, pos);

    ByteBuffer tile = ByteBuffer.allocateDirect(c.length * Float.BYTES).order(ByteOrder.nativeOrder());
    tile.asFloatBuffer().put(c);
    float[] max2 = new float[rows];
    float[] second2 = new float[rows];
    int[] pos2 = new int[rows];
    TileScan.columnsTop2Scalar(tile, rows, 0, rows, w, l2, sqf, j0, max2, second2, pos2);
    for (int r = 0; r < rows; r++) {
      assertThat(max[r]).as("max of row %s", r).isEqualTo(max2[r]);
      // equal as values: a signed zero may differ where +0 and -0 tie (both compare equal)
      assertThat(second[r] == second2[r] || (Float.isNaN(second[r]) && Float.isNaN(second2[r])))
          .as("second of row %s: %s vs %s", r, second[r], second2[r]).isTrue();
      assertThat(pos[r]).as("position of row %s", r).isEqualTo(pos2[r]);
    }
  }

  @Test
  void aMaximumRepeatedInALaterSegmentIsTheRunnerUpAndKeepsItsFirstPosition() {
    int w = 2 * Top2Columns.SEGMENTS; // two columns a segment
    float[] c = new float[w];
    c[1] = 3f; // segment 0
    c[w - 1] = 3f; // the last segment
    c[5] = 2f;
    float[] max = new float[1];
    float[] second = new float[1];
    int[] pos = new int[1];
    Top2Columns.scan(c, 1, w, false, null, 0, max, second, pos);
    assertThat(max[0]).isEqualTo(3f);
    assertThat(second[0]).isEqualTo(3f);
    assertThat(pos[0]).isEqualTo(1);
  }

  @Test
  void aRowOfMinusInfinityHasNoPosition() {
    float[] c = new float[40];
    java.util.Arrays.fill(c, Float.NEGATIVE_INFINITY);
    float[] max = new float[1];
    float[] second = new float[1];
    int[] pos = new int[1];
    Top2Columns.scan(c, 1, 40, false, null, 0, max, second, pos);
    assertThat(max[0]).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThat(second[0]).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThat(pos[0]).isEqualTo(-1);
  }

  @Test
  void theSourceCompilesTheSameConstantsAsTheTwin() {
    assertThat(Top2Columns.SOURCE)
        .contains("#define ROWS " + Top2Columns.ROWS)
        .contains("#define SEGMENTS " + Top2Columns.SEGMENTS)
        .contains("void " + Top2Columns.KERNEL + "(")
        .contains("__fsub_rn(__fmul_rn(2.0f, v), sqf[j])");
  }
}
