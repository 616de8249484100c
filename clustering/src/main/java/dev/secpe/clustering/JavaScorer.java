package dev.secpe.clustering;

/**
 * The plain-Java inner-product engine: 4 x 4 register tiles (16 independent accumulators) over
 * rows of A and rows of one chunk of B, both read along the contiguous dimension. The tile lives
 * in a Java array, so the scan reads it in place.
 */
final class JavaScorer implements BlockScorer {

  private final float[] b;
  private final int d;
  private final Tiling tiling;
  private final float[] c;
  private float[] a;
  private int rows;
  private int width;

  private JavaScorer(float[] b, int d, Tiling tiling, int maxRows) {
    this.b = b;
    this.d = d;
    this.tiling = tiling;
    this.c = new float[Math.multiplyExact(maxRows, tiling.chunkCols())];
  }

  static Factory factory(float[] b, int d, Tiling tiling) {
    return new Factory() {
      @Override
      public BlockScorer newScorer(int maxRows) {
        return new JavaScorer(b, d, tiling, maxRows);
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void load(float[] a, int rows) {
    this.a = a; // the lane's own block array, unchanged until the next load
    this.rows = rows;
  }

  @Override
  public void multiply(int chunk) {
    final int d = this.d;
    final int n = tiling.width(chunk);
    final int jb = tiling.start(chunk);
    final float[] a = this.a;
    final float[] b = this.b;
    final float[] out = this.c;
    width = n;
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
      int a0 = r * d;
      int a1 = a0 + d;
      int a2 = a1 + d;
      int a3 = a2 + d;
      int j = 0;
      for (; j + 4 <= n; j += 4) {
        int b0 = (jb + j) * d;
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
          out[(r + q) * n + j] = dot(a, (r + q) * d, b, (jb + j) * d, d);
        }
      }
    }
    for (; r < rows; r++) {
      for (int j = 0; j < n; j++) {
        out[r * n + j] = dot(a, r * d, b, (jb + j) * d, d);
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
  public float[] row(int r, float[] buf) {
    return c;
  }

  @Override
  public int rowOffset(int r) {
    return r * width;
  }

  @Override
  public void close() {}
}
