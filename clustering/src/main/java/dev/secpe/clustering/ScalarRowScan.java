package dev.secpe.clustering;

import dev.secpe.clustering.spi.TileScan;
import java.nio.ByteBuffer;

/**
 * {@link RowScan} in plain Java, on arrays: one compare per column in the common case. The
 * in-place scan of native tiles ({@link BufferRowScan}) extends it.
 */
class ScalarRowScan extends RowScan {

  static final ScalarRowScan INSTANCE = new ScalarRowScan();

  ScalarRowScan() {}

  @Override
  final int top2(float[] src, int off, int w, boolean l2, float[] sqf, int j0, float[] top) {
    float m = Float.NEGATIVE_INFINITY;
    float s = Float.NEGATIVE_INFINITY;
    int pos = -1;
    for (int j = 0; j < w; j++) {
      float v = l2 ? 2f * src[off + j] - sqf[j0 + j] : src[off + j];
      if (v > s) { // rarely taken after the first columns
        if (v > m) {
          s = m;
          m = v;
          pos = j;
        } else {
          s = v;
        }
      }
    }
    top[0] = m;
    top[1] = s;
    return pos;
  }

  @Override
  void columnsTop2(ByteBuffer src, int ld, int r0, int r1, int w, boolean l2,
      float[] sqf, int j0, float[] max, float[] second, int[] pos) {
    TileScan.columnsTop2Scalar(src, ld, r0, r1, w, l2, sqf, j0, max,
        second, pos);
  }

  @Override
  final int indexOf(float[] src, int off, int w, boolean l2, float[] sqf, int j0, float v) {
    for (int j = 0; j < w; j++) {
      if ((l2 ? 2f * src[off + j] - sqf[j0 + j] : src[off + j]) == v) {
        return j;
      }
    }
    return -1;
  }

  @Override
  final int collect(float[] src, int off, int w, boolean l2, float[] sqf, int j0, double thr,
      int[] outIdx, float[] outVal, int at) {
    for (int j = 0; j < w; j++) {
      float v = l2 ? 2f * src[off + j] - sqf[j0 + j] : src[off + j];
      if (v >= thr) {
        outIdx[at] = j0 + j;
        outVal[at++] = v;
      }
    }
    return at;
  }

  @Override
  String name() {
    return "scalar";
  }
}
