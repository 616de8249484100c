package dev.secpe.clustering;

/**
 * Independent brute force for the kernel tests: every pair scored with the exact score of
 * {@link Metric}'s javadoc (written out again here, not calling the kernel), the best kept with
 * the lowest index on equal scores.
 */
final class BruteForce {
  private BruteForce() {}

  static float[][] normalise(float[][] x) {
    float[][] y = new float[x.length][];
    for (int i = 0; i < x.length; i++) {
      double s = 0;
      for (float v : x[i]) {
        s += (double) v * (double) v;
      }
      double inv = 1.0 / Math.sqrt(s);
      y[i] = new float[x[i].length];
      for (int j = 0; j < x[i].length; j++) {
        y[i][j] = (float) (x[i][j] * inv);
      }
    }
    return y;
  }

  static double dot(float[] x, float[] y) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      s += (double) x[i] * (double) y[i];
    }
    return s;
  }

  static double score(Metric m, float[] a, float[] b) {
    if (m == Metric.COSINE) {
      return dot(a, b);
    }
    return Math.max(0.0, (dot(a, a) + dot(b, b)) - 2.0 * dot(a, b));
  }

  /** Sorted (best first, lowest index on ties) indices of b for one row a. */
  static int[] ranking(Metric m, float[][] a, float[][] b, int row) {
    float[][] an = m == Metric.COSINE ? normalise(a) : a;
    float[][] bn = m == Metric.COSINE ? normalise(b) : b;
    Integer[] order = new Integer[b.length];
    double[] s = new double[b.length];
    for (int j = 0; j < b.length; j++) {
      order[j] = j;
      s[j] = score(m, an[row], bn[j]);
    }
    java.util.Arrays.sort(order, (x, y) -> {
      int c = m == Metric.COSINE ? Double.compare(s[y], s[x]) : Double.compare(s[x], s[y]);
      return c != 0 ? c : Integer.compare(x, y);
    });
    int[] out = new int[b.length];
    for (int j = 0; j < b.length; j++) {
      out[j] = order[j];
    }
    return out;
  }

  static int[] top1(Metric m, float[][] a, float[][] b) {
    float[][] an = m == Metric.COSINE ? normalise(a) : a;
    float[][] bn = m == Metric.COSINE ? normalise(b) : b;
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      int bi = 0;
      double bs = score(m, an[i], bn[0]);
      for (int j = 1; j < b.length; j++) {
        double s = score(m, an[i], bn[j]);
        if (m == Metric.COSINE ? s > bs : s < bs) {
          bs = s;
          bi = j;
        }
      }
      out[i] = bi;
    }
    return out;
  }
}
