package dev.secpe.evaluation;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A small seeded k-means (k-means++ initialisation, Lloyd iterations, squared Euclidean
 * distance) for MAUVE's quantisation. Package-private: the library's production k-means lives in
 * the clustering module; this one needs no backend and is deterministic for a seed.
 *
 * <p>Why not the clustering module's {@code KMeans}: MAUVE's figures are defined by this
 * double-precision quantisation (the reference implementation's), and that one (float rows,
 * accept-if-better updates, exact sums, native kernels) would move every MAUVE score and make this
 * module depend on the kernels. Two algorithms, one each: not the same idea written twice.
 *
 * <p>An empty cluster keeps its previous centre. Iterations stop when no assignment changes or
 * after {@code maxIterations}. Of {@code restarts} runs (seeds split from {@code seed}) the one
 * with the lowest inertia wins.
 */
final class KMeans {

  private KMeans() {}

  /** Cluster index of each row. */
  static int[] assign(double[][] x, int k, int restarts, int maxIterations, long seed) {
    SplittableRandom root = new SplittableRandom(seed);
    int[] best = null;
    double bestInertia = Double.POSITIVE_INFINITY;
    for (int r = 0; r < restarts; r++) {
      SplittableRandom rng = root.split();
      int[] labels = new int[x.length];
      double inertia = run(x, k, maxIterations, rng, labels);
      if (inertia < bestInertia) {
        bestInertia = inertia;
        best = labels;
      }
    }
    return best;
  }

  private static double run(
      double[][] x, int k, int maxIterations, SplittableRandom rng, int[] labels) {
    int n = x.length;
    int d = x[0].length;
    double[][] centres = plusPlus(x, k, rng);
    Arrays.fill(labels, -1);
    double inertia = 0;
    for (int it = 0; it < maxIterations; it++) {
      boolean changed = false;
      inertia = 0;
      for (int i = 0; i < n; i++) {
        int arg = 0;
        double min = Double.POSITIVE_INFINITY;
        for (int c = 0; c < k; c++) {
          double s = dist2(x[i], centres[c], min);
          if (s < min) {
            min = s;
            arg = c;
          }
        }
        inertia += min;
        if (labels[i] != arg) {
          labels[i] = arg;
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
      double[][] sums = new double[k][d];
      int[] counts = new int[k];
      for (int i = 0; i < n; i++) {
        counts[labels[i]]++;
        double[] s = sums[labels[i]];
        for (int j = 0; j < d; j++) {
          s[j] += x[i][j];
        }
      }
      for (int c = 0; c < k; c++) {
        if (counts[c] > 0) {
          for (int j = 0; j < d; j++) {
            centres[c][j] = sums[c][j] / counts[c];
          }
        }
      }
    }
    return inertia;
  }

  /** k-means++ seeding (Arthur and Vassilvitskii 2007): D^2-weighted sampling. */
  private static double[][] plusPlus(double[][] x, int k, SplittableRandom rng) {
    int n = x.length;
    double[][] centres = new double[k][];
    centres[0] = x[rng.nextInt(n)].clone();
    double[] d2 = new double[n];
    for (int i = 0; i < n; i++) {
      d2[i] = dist2(x[i], centres[0], Double.POSITIVE_INFINITY);
    }
    for (int c = 1; c < k; c++) {
      double total = 0;
      for (double v : d2) {
        total += v;
      }
      int pick;
      if (total > 0) {
        double u = rng.nextDouble() * total;
        pick = n - 1;
        double acc = 0;
        for (int i = 0; i < n; i++) {
          acc += d2[i];
          if (acc > u) {
            pick = i;
            break;
          }
        }
      } else {
        pick = rng.nextInt(n); // every point already sits on a centre
      }
      centres[c] = x[pick].clone();
      for (int i = 0; i < n; i++) {
        d2[i] = Math.min(d2[i], dist2(x[i], centres[c], d2[i]));
      }
    }
    return centres;
  }

  private static double dist2(double[] a, double[] b, double bound) {
    double s = 0;
    for (int j = 0; j < a.length; j++) {
      double t = a[j] - b[j];
      s += t * t;
      if ((j & 15) == 15 && s >= bound) {
        return s;
      }
    }
    return s;
  }
}
