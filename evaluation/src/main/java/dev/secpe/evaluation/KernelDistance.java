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
