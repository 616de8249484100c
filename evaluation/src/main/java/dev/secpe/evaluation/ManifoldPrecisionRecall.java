package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Arrays;

/**
 * Improved precision and recall of Kynkäänniemi, Karras, Laine, Lehtinen and Aila, "Improved
 * Precision and Recall Metric for Assessing Generative Models" (NeurIPS 2019).
 *
 * <p>Each set's manifold is estimated as the union of Euclidean balls around its points, the ball
 * of point x having as radius the distance from x to its k-th nearest neighbour in the same set
 * (x itself excluded; duplicates count, at distance 0). Then
 *
 * <ul>
 *   <li>precision = fraction of synthetic points lying in some ball of the real manifold;
 *   <li>recall = fraction of real points lying in some ball of the synthetic manifold.
 * </ul>
 *
 * A point on a ball's boundary counts as inside ({@code <=}), so identical sets score 1 and 1.
 * The paper uses k = 3, the default here. Distances are computed in double on the raw embeddings
 * (normalise rows first for cosine geometry). Cost: O((n_real + n_synth)^2 d) time, O(n) memory.
 */
public final class ManifoldPrecisionRecall {

  /** The paper's default neighbour rank. */
  public static final int DEFAULT_K = 3;

  private ManifoldPrecisionRecall() {}

  /** Precision and recall with k = {@value #DEFAULT_K}. */
  public static PrecisionRecall compute(EmbeddingMatrix real, EmbeddingMatrix synthetic) {
    return compute(real, synthetic, DEFAULT_K);
  }

  /**
   * Precision and recall with neighbour rank {@code k}.
   *
   * @throws IllegalArgumentException if {@code k < 1}, a set has at most k rows, or dimensions differ
   */
  public static PrecisionRecall compute(EmbeddingMatrix real, EmbeddingMatrix synthetic, int k) {
    Checks.positive(k, "k");
    Checks.rowsAtLeast(real, "real", k + 1);
    Checks.rowsAtLeast(synthetic, "synthetic", k + 1);
    Checks.sameDimension(real, "real", synthetic, "synthetic");
    double[][] r = Checks.toDouble(real);
    double[][] s = Checks.toDouble(synthetic);
    double[] realRadii = kthNeighbourSquaredDistances(r, k);
    double[] synthRadii = kthNeighbourSquaredDistances(s, k);
    double precision = fractionCovered(s, r, realRadii);
    double recall = fractionCovered(r, s, synthRadii);
    return new PrecisionRecall(precision, recall, k);
  }

  /** For each row, the squared distance to its k-th nearest other row. */
  static double[] kthNeighbourSquaredDistances(double[][] x, int k) {
    int n = x.length;
    double[] out = new double[n];
    double[] best = new double[k];
    for (int i = 0; i < n; i++) {
      Arrays.fill(best, Double.POSITIVE_INFINITY);
      // best is kept sorted ascending; best[k-1] is the current k-th smallest
      for (int j = 0; j < n; j++) {
        if (j == i) {
          continue;
        }
        double d2 = squaredDistance(x[i], x[j], best[k - 1]);
        if (d2 < best[k - 1]) {
          int p = k - 1;
          while (p > 0 && best[p - 1] > d2) {
            best[p] = best[p - 1];
            p--;
          }
          best[p] = d2;
        }
      }
      out[i] = best[k - 1];
    }
    return out;
  }

  /** The fraction of {@code points} within the ball (squared radius) of some centre. */
  static double fractionCovered(double[][] points, double[][] centres, double[] squaredRadii) {
    double maxRadius = 0;
    for (double r : squaredRadii) {
      maxRadius = Math.max(maxRadius, r);
    }
    int covered = 0;
    for (double[] p : points) {
      for (int j = 0; j < centres.length; j++) {
        if (squaredDistance(p, centres[j], maxRadius) <= squaredRadii[j]) {
          covered++;
          break;
        }
      }
    }
    return (double) covered / points.length;
  }

  /** Squared distance; stops early (returning a value above {@code bound}) once it exceeds it. */
  private static double squaredDistance(double[] a, double[] b, double bound) {
    double s = 0;
    int d = a.length;
    for (int j = 0; j < d; j++) {
      double t = a[j] - b[j];
      s += t * t;
      if ((j & 31) == 31 && s > bound) {
        return s;
      }
    }
    return s;
  }
}
