package dev.secpe.evolution.engine;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/** Selection rules on a (noisy) histogram: all post-processing, free of privacy cost. */
public final class Selection {

  private Selection() {}

  /**
   * The {@code n} indices with the largest scores, best first; ties go to the lower index so the
   * result is deterministic.
   */
  public static int[] topN(double[] scores, int n) {
    if (n < 0 || n > scores.length) {
      throw new IllegalArgumentException(
          "n must be in [0, " + scores.length + "], got n=" + n);
    }
    Integer[] idx = new Integer[scores.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(
        idx,
        (a, b) -> {
          int c = Double.compare(scores[b], scores[a]);
          return c != 0 ? c : Integer.compare(a, b);
        });
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = idx[i];
    }
    return out;
  }

  /**
   * Aug-PE's probability mode: {@code n} draws with replacement, each index with probability
   * proportional to {@code max(score, 0)}. When every score is {@code <= 0} the histogram carries no
   * preference and the draw is uniform (documented policy, not a silent fix).
   */
  public static int[] proportional(double[] scores, int n, RandomGenerator rng) {
    if (scores.length == 0) {
      throw new IllegalArgumentException("cannot select from an empty histogram");
    }
    double[] cum = new double[scores.length];
    double total = 0;
    for (int i = 0; i < scores.length; i++) {
      total += Math.max(scores[i], 0.0);
      cum[i] = total;
    }
    int[] out = new int[n];
    for (int s = 0; s < n; s++) {
      if (!(total > 0)) {
        out[s] = rng.nextInt(scores.length);
        continue;
      }
      double u = rng.nextDouble() * total;
      out[s] = firstAbove(cum, u);
    }
    return out;
  }

  /**
   * {@code n} distinct indices drawn without replacement with probability proportional to {@code
   * max(score, 0)} (Efraimidis–Spirakis: the {@code n} largest keys {@code u^(1/w)}); indices of
   * weight zero follow, lowest index first, only when fewer than {@code n} weigh anything.
   */
  public static int[] proportionalDistinct(double[] scores, int n, RandomGenerator rng) {
    if (n < 0 || n > scores.length) {
      throw new IllegalArgumentException("n must be in [0, " + scores.length + "], got n=" + n);
    }
    double[] key = new double[scores.length];
    for (int i = 0; i < scores.length; i++) {
      double w = Math.max(scores[i], 0.0);
      double u = rng.nextDouble();
      // log-key: log(u) / w, larger is better; weight zero sorts last.
      key[i] = w > 0 ? Math.log(1.0 - u) / w : Double.NEGATIVE_INFINITY;
    }
    return topN(key, n);
  }

  /**
   * The first index whose cumulative weight exceeds {@code u} (so zero-weight entries are never
   * hit).
   */
  private static int firstAbove(double[] cum, double u) {
    int lo = 0;
    int hi = cum.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cum[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
