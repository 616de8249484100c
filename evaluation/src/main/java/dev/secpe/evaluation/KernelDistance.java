package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;

/**
 * The kernel distance between two embedding sets: the unbiased estimate of the squared maximum
 * mean discrepancy (MMD²) under the cubic polynomial kernel {@code k(x, y) = (x·y / d + 1)^3},
 * the "KID" of Bińkowski et al., "Demystifying MMD GANs" (ICLR 2018), computed on sentence
 * embeddings:
 *
 * <pre>
 *   KID = 1/(m(m-1)) sum_{i != j} k(a_i, a_j) + 1/(n(n-1)) sum_{i != j} k(b_i, b_j)
 *         - 2/(m n) sum_{i, j} k(a_i, b_j)
 * </pre>
 *
 * <p>Why beside FID: the estimate is unbiased at every sample size (its expectation is the true
 * MMD², zero when both sets come from one distribution, so small samples can give values slightly
 * below zero), and it needs no projection. FID from 100 texts in 384 dimensions is biased by about
 * 0.5 and is read in a chosen set of principal components ({@link PrincipalProjection}); KID
 * checks such a reading without either choice.
 *
 * <p>Stateless and thread-safe. Cost: O((m + n)^2 d); about 0.1 s for 100 against 500 MiniLM
 * vectors.
 */
public final class KernelDistance {

  private KernelDistance() {}

  /**
   * KID between the rows of {@code a} and the rows of {@code b}.
   *
   * @throws IllegalArgumentException if either has fewer than 2 rows or the dimensions differ
   */
  public static double between(EmbeddingMatrix a, EmbeddingMatrix b) {
    Checks.TwoSets s = Checks.twoSets(a, b, 2);
    return between(s.a(), s.b());
  }

  /**
   * KID between two sets of row vectors.
   *
   * @throws IllegalArgumentException if either has fewer than 2 rows, rows differ in length, or a
   *     value is not finite
   */
  public static double between(double[][] a, double[][] b) {
    Checks.TwoSets s = Checks.twoSets(a, b, 2);
    double[][] x = s.a();
    double[][] y = s.b();
    int d = x[0].length;
    int m = x.length;
    int n = y.length;
    double xx = offDiagonalSum(x, d) / ((double) m * (m - 1));
    double yy = offDiagonalSum(y, d) / ((double) n * (n - 1));
    double xy = 0;
    for (double[] u : x) {
      for (double[] v : y) {
        xy += kernel(u, v, d);
      }
    }
    return xx + yy - 2 * xy / ((double) m * n);
  }

  /**
   * KID with its standard error.
   *
   * @param value the unbiased KID, as {@link #between(double[][], double[][])} gives it
   * @param standardError the two-sample jackknife estimate of its standard error: each row of
   *     either set left out in turn (Efron and Stein 1981; the variance is the sum of the two sets'
   *     jackknife variances). Conservative: the jackknife over-states a U-statistic's variance
   *     (Efron–Stein), by about a third at 30 and 40 rows (KernelDistanceTest), so the error is
   *     about 15% too large. A difference between two KIDs of under about two standard errors is
   *     within the sampling noise of the sets.
   */
  public record Estimate(double value, double standardError) {}

  /**
   * KID between {@code a} and {@code b} with its jackknife standard error; O((m + n)^2 d) like
   * {@link #between(EmbeddingMatrix, EmbeddingMatrix)}.
   *
   * @throws IllegalArgumentException if either has fewer than 3 rows or the dimensions differ
   */
  public static Estimate withStandardError(EmbeddingMatrix a, EmbeddingMatrix b) {
    Checks.TwoSets s = Checks.twoSets(a, b, 3);
    double[][] x = s.a();
    double[][] y = s.b();
    int d = x[0].length;
    int m = x.length;
    int n = y.length;
    double[] rxx = rowSums(x, x, d, true);
    double[] ryy = rowSums(y, y, d, true);
    double[] rxy = rowSums(x, y, d, false);
    double[] ryx = rowSums(y, x, d, false);
    double sxx = sum(rxx);
    double syy = sum(ryy);
    double sxy = sum(rxy);
    double value = sxx / ((double) m * (m - 1)) + syy / ((double) n * (n - 1)) - 2 * sxy / ((double) m * n);
    double[] leaveX = new double[m];
    for (int i = 0; i < m; i++) {
      leaveX[i] = (sxx - 2 * rxx[i]) / ((double) (m - 1) * (m - 2)) + syy / ((double) n * (n - 1))
          - 2 * (sxy - rxy[i]) / ((double) (m - 1) * n);
    }
    double[] leaveY = new double[n];
    for (int j = 0; j < n; j++) {
      leaveY[j] = sxx / ((double) m * (m - 1)) + (syy - 2 * ryy[j]) / ((double) (n - 1) * (n - 2))
          - 2 * (sxy - ryx[j]) / ((double) m * (n - 1));
    }
    return new Estimate(value, Math.sqrt(jackknifeVariance(leaveX) + jackknifeVariance(leaveY)));
  }

  private static double jackknifeVariance(double[] leaveOneOut) {
    int k = leaveOneOut.length;
    double mean = sum(leaveOneOut) / k;
    double ss = 0;
    for (double v : leaveOneOut) {
      ss += (v - mean) * (v - mean);
    }
    return (k - 1.0) / k * ss;
  }

  /** For each row of u, the sum of the kernel against every row of v (less itself when {@code same}). */
  private static double[] rowSums(double[][] u, double[][] v, int d, boolean same) {
    double[] out = new double[u.length];
    for (int i = 0; i < u.length; i++) {
      double s = 0;
      for (int j = 0; j < v.length; j++) {
        if (!same || i != j) {
          s += kernel(u[i], v[j], d);
        }
      }
      out[i] = s;
    }
    return out;
  }

  private static double sum(double[] xs) {
    double s = 0;
    for (double x : xs) {
      s += x;
    }
    return s;
  }

  private static double offDiagonalSum(double[][] x, int d) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      for (int j = i + 1; j < x.length; j++) {
        s += kernel(x[i], x[j], d);
      }
    }
    return 2 * s;
  }

  private static double kernel(double[] u, double[] v, int d) {
    double dot = 0;
    for (int k = 0; k < d; k++) {
      dot += u[k] * v[k];
    }
    double t = dot / d + 1;
    return t * t * t;
  }
}
