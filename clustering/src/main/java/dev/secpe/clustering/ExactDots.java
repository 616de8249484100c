package dev.secpe.clustering;

/**
 * The exact score's inner product ({@link Metric}: the float inputs' products summed in double in
 * index order), several at once. Each sum is one chain of dependent additions, so one alone runs
 * at the adder's latency; eight independent chains interleaved run near its throughput. Every
 * result is bit-identical to {@link NearestNeighbours#exactDot} on the same pair (same additions,
 * same order; Java never reassociates floating point).
 */
final class ExactDots {

  private ExactDots() {}

  /** {@code out[outAt + q] = x_r . x_r} for rows {@code r = from + q < to} of {@code x} (dim d). */
  static void selfDots(float[] x, int from, int to, int d, double[] out, int outAt) {
    int r = from;
    int o = outAt;
    for (; r + 8 <= to; r += 8, o += 8) {
      int p0 = r * d;
      int p1 = p0 + d;
      int p2 = p1 + d;
      int p3 = p2 + d;
      int p4 = p3 + d;
      int p5 = p4 + d;
      int p6 = p5 + d;
      int p7 = p6 + d;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
      for (int i = 0; i < d; i++) {
        double v0 = x[p0 + i], v1 = x[p1 + i], v2 = x[p2 + i], v3 = x[p3 + i];
        double v4 = x[p4 + i], v5 = x[p5 + i], v6 = x[p6 + i], v7 = x[p7 + i];
        s0 += v0 * v0;
        s1 += v1 * v1;
        s2 += v2 * v2;
        s3 += v3 * v3;
        s4 += v4 * v4;
        s5 += v5 * v5;
        s6 += v6 * v6;
        s7 += v7 * v7;
      }
      out[o] = s0;
      out[o + 1] = s1;
      out[o + 2] = s2;
      out[o + 3] = s3;
      out[o + 4] = s4;
      out[o + 5] = s5;
      out[o + 6] = s6;
      out[o + 7] = s7;
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
    for (; q + 8 <= count; q += 8) {
      int a0 = xr[q] * d, a1 = xr[q + 1] * d, a2 = xr[q + 2] * d, a3 = xr[q + 3] * d;
      int a4 = xr[q + 4] * d, a5 = xr[q + 5] * d, a6 = xr[q + 6] * d, a7 = xr[q + 7] * d;
      int b0 = yr[q] * d, b1 = yr[q + 1] * d, b2 = yr[q + 2] * d, b3 = yr[q + 3] * d;
      int b4 = yr[q + 4] * d, b5 = yr[q + 5] * d, b6 = yr[q + 6] * d, b7 = yr[q + 7] * d;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
      for (int i = 0; i < d; i++) {
        s0 += (double) x[a0 + i] * (double) y[b0 + i];
        s1 += (double) x[a1 + i] * (double) y[b1 + i];
        s2 += (double) x[a2 + i] * (double) y[b2 + i];
        s3 += (double) x[a3 + i] * (double) y[b3 + i];
        s4 += (double) x[a4 + i] * (double) y[b4 + i];
        s5 += (double) x[a5 + i] * (double) y[b5 + i];
        s6 += (double) x[a6 + i] * (double) y[b6 + i];
        s7 += (double) x[a7 + i] * (double) y[b7 + i];
      }
      out[q] = s0;
      out[q + 1] = s1;
      out[q + 2] = s2;
      out[q + 3] = s3;
      out[q + 4] = s4;
      out[q + 5] = s5;
      out[q + 6] = s6;
      out[q + 7] = s7;
    }
    for (; q < count; q++) {
      out[q] = NearestNeighbours.exactDot(x, xr[q] * d, y, yr[q] * d, d);
    }
  }
}
