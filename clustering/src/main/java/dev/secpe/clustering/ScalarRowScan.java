package dev.secpe.clustering;

/** {@link RowScan} in plain Java: one compare per column in the common case. */
final class ScalarRowScan extends RowScan {

  static final ScalarRowScan INSTANCE = new ScalarRowScan();

  private ScalarRowScan() {}

  @Override
  float max(float[] src, int off, int w, boolean l2, float[] sqf, int j0) {
    float m = Float.NEGATIVE_INFINITY;
    if (!l2) {
      for (int j = 0; j < w; j++) {
        float v = src[off + j];
        if (v > m) { // rarely taken after the first columns
          m = v;
        }
      }
    } else {
      for (int j = 0; j < w; j++) {
        float v = 2f * src[off + j] - sqf[j0 + j];
        if (v > m) {
          m = v;
        }
      }
    }
    return m;
  }

  @Override
  int collect(float[] src, int off, int w, boolean l2, float[] sqf, int j0, double thr,
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
