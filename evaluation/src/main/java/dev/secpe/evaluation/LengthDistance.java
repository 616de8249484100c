package dev.secpe.evaluation;

import dev.secpe.core.Words;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How far apart the length distributions (in words, as {@link Words#count(String)} counts them)
 * of real and synthetic texts are: SecPE and DPGA-TextSyn plot these distributions (SecPE Figs.
 * 2, 5-7); this record gives them as numbers.
 *
 * @param wasserstein1 the 1-Wasserstein (earth mover's) distance between the two empirical
 *     distributions, in words: the integral of |F_real(x) - F_synthetic(x)| dx, as {@code
 *     scipy.stats.wasserstein_distance}
 * @param kolmogorovSmirnov the two-sample Kolmogorov-Smirnov statistic sup_x |F_real(x) -
 *     F_synthetic(x)|, in [0, 1], as {@code scipy.stats.ks_2samp(...).statistic}
 * @param meanReal the mean length of the real texts
 * @param meanSynthetic the mean length of the synthetic texts
 */
public record LengthDistance(
    double wasserstein1, double kolmogorovSmirnov, double meanReal, double meanSynthetic) {

  /** Validates eagerly. */
  public LengthDistance {
    if (!(wasserstein1 >= 0) || !Double.isFinite(wasserstein1)) {
      throw new IllegalArgumentException(
          "wasserstein1 must be finite and >= 0, got wasserstein1=" + wasserstein1);
    }
    if (!(kolmogorovSmirnov >= 0 && kolmogorovSmirnov <= 1)) {
      throw new IllegalArgumentException(
          "kolmogorovSmirnov must be in [0, 1], got kolmogorovSmirnov=" + kolmogorovSmirnov);
    }
    if (!(meanReal >= 0) || !(meanSynthetic >= 0)) {
      throw new IllegalArgumentException(
          "means must be >= 0, got meanReal=" + meanReal + " meanSynthetic=" + meanSynthetic);
    }
  }

  /**
   * Distances between the word counts of {@code real} and {@code synthetic} texts.
   *
   * @throws IllegalArgumentException if a list is empty
   */
  public static LengthDistance ofTexts(List<String> real, List<String> synthetic) {
    return of(counts(real, "real"), counts(synthetic, "synthetic"));
  }

  private static double[] counts(List<String> texts, String name) {
    Objects.requireNonNull(texts, name);
    double[] out = new double[texts.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Words.count(Objects.requireNonNull(texts.get(i), name + " text"));
    }
    return out;
  }

  /**
   * Distances between two samples of lengths (any finite non-negative values).
   *
   * @throws IllegalArgumentException if a sample is empty or holds a negative or non-finite value
   */
  public static LengthDistance of(double[] real, double[] synthetic) {
    double[] a = sortedChecked(real, "real");
    double[] b = sortedChecked(synthetic, "synthetic");
    // Walk the merged support; between consecutive support points both CDFs are constant.
    int i = 0;
    int j = 0;
    double w = 0;
    double ks = 0;
    double prev = Math.min(a[0], b[0]);
    while (i < a.length || j < b.length) {
      double x = Math.min(i < a.length ? a[i] : Double.POSITIVE_INFINITY,
          j < b.length ? b[j] : Double.POSITIVE_INFINITY);
      double fa = (double) i / a.length;
      double fb = (double) j / b.length;
      w += Math.abs(fa - fb) * (x - prev);
      while (i < a.length && a[i] == x) {
        i++;
      }
      while (j < b.length && b[j] == x) {
        j++;
      }
      ks = Math.max(ks, Math.abs((double) i / a.length - (double) j / b.length));
      prev = x;
    }
    return new LengthDistance(w, ks, mean(a), mean(b));
  }

  private static double[] sortedChecked(double[] v, String name) {
    Objects.requireNonNull(v, name);
    if (v.length == 0) {
      throw new IllegalArgumentException(name + " must not be empty, got length=0");
    }
    for (int i = 0; i < v.length; i++) {
      if (!(v[i] >= 0) || !Double.isFinite(v[i])) {
        throw new IllegalArgumentException(
            name + "[" + i + "] must be finite and >= 0, got " + v[i]);
      }
    }
    double[] s = v.clone();
    Arrays.sort(s);
    return s;
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }
}
