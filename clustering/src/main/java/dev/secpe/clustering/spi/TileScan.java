package dev.secpe.clustering.spi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * A faster arg-max scan of a native score tile's row, read in place: the service through which
 * {@code secpe-kernel-openblas} adds its JDK Vector API scan without this module requiring the
 * incubator module. Internal, like the rest of this package. An implementation must give exactly
 * the results of the kernel's scalar loops (the kernel checks it once against them before it uses
 * it, and falls back to them if they differ or the scan fails to link).
 *
 * <p>The ranking value of column {@code j} is the float score {@code c_j} (cosine) or {@code 2f *
 * c_j - sqf[j0 + j]} (L2), larger is nearer; values are never NaN.
 */
public interface TileScan {

  /** A short name for reports ({@code "vector-256"}). */
  String name();

  /**
   * The two largest ranking values of the row of {@code w >= 1} floats at {@code src[byteOff
   * ..]} (native byte order): {@code top[0]} the largest, {@code top[1]} the largest of the
   * others (equal to {@code top[0]} when the maximum occurs twice; -infinity when w is 1).
   *
   * @return the position of the first maximum where the pass found it on the way, else -1
   */
  int top2(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0, float[] top);

  /** The first position in the row whose ranking value equals {@code v}, or -1. */
  int indexOf(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0, float v);

  /**
   * The top two of each row {@code r0 <= r < r1} of a column-major tile read in place: column
   * {@code j < w} of the row at float {@code j ld + r} of {@code src} (native byte order). As
   * {@link #top2} row by row: {@code max[r]} the largest ranking value, {@code second[r]} the
   * largest of the others ({@code max[r]} when the maximum occurs twice, -infinity when w is 1),
   * and {@code pos[r]} the first position of the maximum, always found.
   */
  void columnsTop2(ByteBuffer src, int ld, int r0, int r1, int w, boolean l2, float[] sqf, int j0,
      float[] max, float[] second, int[] pos);

  /**
   * {@link #columnsTop2} in plain loops: the kernel's scalar scan, and what a vector scan runs on
   * the rows its vectors do not cover (rows are independent, so the split changes no result).
   */
  static void columnsTop2Scalar(ByteBuffer src, int ld, int r0, int r1, int w, boolean l2,
      float[] sqf, int j0, float[] max, float[] second, int[] pos) {
    Arrays.fill(max, r0, r1, Float.NEGATIVE_INFINITY);
    Arrays.fill(second, r0, r1, Float.NEGATIVE_INFINITY);
    Arrays.fill(pos, r0, r1, -1);
    FloatBuffer f = src.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer();
    for (int j = 0, o = 0; j < w; j++, o += ld) {
      float sq = l2 ? sqf[j0 + j] : 0f;
      for (int r = r0; r < r1; r++) {
        float c = f.get(o + r);
        float v = l2 ? 2f * c - sq : c;
        if (v > second[r]) { // the same decisions as top2, row by row
          if (v > max[r]) {
            second[r] = max[r];
            max[r] = v;
            pos[r] = j;
          } else {
            second[r] = v;
          }
        }
      }
    }
  }

  /**
   * The {@link java.util.ServiceLoader} service: a factory that links to nothing optional, so that
   * it loads whatever modules the JVM has, and creates the scan only where it can run.
   */
  interface Provider {
    /** The scan, or null where this JVM cannot run it (a module or CPU feature missing). */
    TileScan create();
  }
}
