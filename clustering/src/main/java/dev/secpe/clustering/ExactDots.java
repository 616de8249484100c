package dev.secpe.clustering;

/**
 * The exact score's inner product ({@link Metric}: the float inputs' products summed in double in
 * index order), four at a time: four independent chains of dependent additions, so that the
 * adder's latency is not the limit (in the kernel these passes are bound by reading the rows
 * from memory; eight chains measured no faster). Every result is bit-identical to {@link
 * NearestNeighbours#exactDot} on the same pair (same additions, same order; Java never
 * reassociates floating point).
 */
final class ExactDots {

  private ExactDots() {}

  /** {@code out[outAt + q] = x_r . x_r} for rows {@code r = from + q < to} of {@code x} (dim d). */
  static void selfDots(float[] x, int from, int to, int d, double[] out, int outAt) {
    int r = from;
    int o = outAt;
    for (; r + 4 <= to; r += 4, o += 4) {
      int p0 = r * d;
      int p1 = p0 + d;
      int p2 = p1 + d;
      int p3 = p2 + d;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int i = 0; i < d; i++) {
        double v0 = x[p0 + i], v1 = x[p1 + i], v2 = x[p2 + i], v3 = x[p3 + i];
        s0 += v0 * v0;
        s1 += v1 * v1;
        s2 += v2 * v2;
        s3 += v3 * v3;
      }
      out[o] = s0;
      out[o + 1] = s1;
      out[o + 2] = s2;
      out[o + 3] = s3;
    }
    for (; r < to; r++, o++) {
      out[o] = NearestNeighbours.exactDot(x, r * d, x, r * d, d);
    }
  }

  /**
   * {@code out[q] = x_{xr[q]} . y_{yr[q]}} for {@code q < count}: rows of {@code x} and {@code y}
   * (both dim d) given by index.
   */
  static void dots(float[] x, int[] xr, float[] y, int[] yr, int count, int d, double[] out) {
    int q = 0;
    for (; q + 4 <= count; q += 4) {
      int a0 = xr[q] * d, a1 = xr[q + 1] * d, a2 = xr[q + 2] * d, a3 = xr[q + 3] * d;
      int b0 = yr[q] * d, b1 = yr[q + 1] * d, b2 = yr[q + 2] * d, b3 = yr[q + 3] * d;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int i = 0; i < d; i++) {
        s0 += (double) x[a0 + i] * (double) y[b0 + i];
        s1 += (double) x[a1 + i] * (double) y[b1 + i];
        s2 += (double) x[a2 + i] * (double) y[b2 + i];
        s3 += (double) x[a3 + i] * (double) y[b3 + i];
      }
      out[q] = s0;
      out[q + 1] = s1;
      out[q + 2] = s2;
      out[q + 3] = s3;
    }
    for (; q < count; q++) {
      out[q] = NearestNeighbours.exactDot(x, xr[q] * d, y, yr[q] * d, d);
    }
  }
}
