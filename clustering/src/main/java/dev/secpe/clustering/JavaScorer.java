package dev.secpe.clustering;

/**
 * The plain-Java inner-product engine: 4 x 4 register tiles (16 independent accumulators) over
 * rows of A and rows of B, both read along the contiguous dimension.
 */
final class JavaScorer implements BlockScorer {

  private final float[] b;
  private final int n;
  private final int d;

  JavaScorer(float[] b, int n, int d) {
    this.b = b;
    this.n = n;
    this.d = d;
  }

  static Factory factory(float[] b, int n, int d) {
    return new Factory() {
      @Override
      public BlockScorer newScorer(int maxRows) {
        return new JavaScorer(b, n, d);
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void scores(float[] a, int rows, float[] out) {
    final int d = this.d;
    final int n = this.n;
    final float[] b = this.b;
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
      int a0 = r * d;
      int a1 = a0 + d;
      int a2 = a1 + d;
      int a3 = a2 + d;
      int j = 0;
      for (; j + 4 <= n; j += 4) {
        int b0 = j * d;
        int b1 = b0 + d;
        int b2 = b1 + d;
        int b3 = b2 + d;
        float s00 = 0, s01 = 0, s02 = 0, s03 = 0;
        float s10 = 0, s11 = 0, s12 = 0, s13 = 0;
        float s20 = 0, s21 = 0, s22 = 0, s23 = 0;
        float s30 = 0, s31 = 0, s32 = 0, s33 = 0;
        for (int i = 0; i < d; i++) {
          float x0 = a[a0 + i], x1 = a[a1 + i], x2 = a[a2 + i], x3 = a[a3 + i];
          float y0 = b[b0 + i], y1 = b[b1 + i], y2 = b[b2 + i], y3 = b[b3 + i];
          s00 += x0 * y0; s01 += x0 * y1; s02 += x0 * y2; s03 += x0 * y3;
          s10 += x1 * y0; s11 += x1 * y1; s12 += x1 * y2; s13 += x1 * y3;
          s20 += x2 * y0; s21 += x2 * y1; s22 += x2 * y2; s23 += x2 * y3;
          s30 += x3 * y0; s31 += x3 * y1; s32 += x3 * y2; s33 += x3 * y3;
        }
        int o = r * n + j;
        out[o] = s00; out[o + 1] = s01; out[o + 2] = s02; out[o + 3] = s03;
        o += n;
        out[o] = s10; out[o + 1] = s11; out[o + 2] = s12; out[o + 3] = s13;
        o += n;
        out[o] = s20; out[o + 1] = s21; out[o + 2] = s22; out[o + 3] = s23;
        o += n;
        out[o] = s30; out[o + 1] = s31; out[o + 2] = s32; out[o + 3] = s33;
      }
      for (; j < n; j++) {
        for (int q = 0; q < 4; q++) {
          out[(r + q) * n + j] = dot(a, (r + q) * d, b, j * d, d);
        }
      }
    }
    for (; r < rows; r++) {
      for (int j = 0; j < n; j++) {
        out[r * n + j] = dot(a, r * d, b, j * d, d);
      }
    }
  }

  private static float dot(float[] x, int xo, float[] y, int yo, int d) {
    float s = 0;
    for (int i = 0; i < d; i++) {
      s += x[xo + i] * y[yo + i];
    }
    return s;
  }

  @Override
  public void close() {}
}
