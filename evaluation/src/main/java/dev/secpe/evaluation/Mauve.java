package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * MAUVE of Pillutla, Swayamdipta, Zellers, Thickstun, Welleck, Choi and Harchaoui, "MAUVE:
 * Measuring the Gap Between Neural Text and Human Text using Divergence Frontiers" (NeurIPS
 * 2021).
 *
 * <ol>
 *   <li><b>Quantisation.</b> The rows of both sets are stacked, optionally L2-normalised and
 *       projected by PCA (see {@link MauveOptions}), and clustered jointly by a seeded k-means
 *       (k-means++ start, Lloyd iterations). P and Q are the normalised cluster histograms of the
 *       first and second set.
 *   <li><b>Divergence curve.</b> For mixtures R_lambda = lambda P + (1 - lambda) Q, lambda on an
 *       even grid over [1e-6, 1 - 1e-6] (25 points by default), the curve has the points
 *       (exp(-c KL(Q || R_lambda)), exp(-c KL(P || R_lambda))), c = 5 by default, closed by the
 *       end points (0, 1) and (1, 0) as in the reference implementation. KL terms with a zero
 *       numerator mass contribute 0; for lambda in (0, 1) R_lambda has the union support, so every
 *       KL is finite. KL is non-negative (Gibbs); rounding can make it -1e-17, so it is clamped at
 *       0, which keeps every point in the unit square.
 *   <li><b>Score.</b> MAUVE is the area under the curve: points sorted by x (ties by y
 *       decreasing), trapezoidal rule. For the monotone frontier this equals the reference's
 *       average of the areas integrated along x and along y. MAUVE(P, P) = 1; it decreases
 *       towards 0 as the supports separate.
 * </ol>
 *
 * MAUVE is symmetric in its two arguments. The quantisation depends on the k-means seed; {@link
 * #fromHistograms} and {@link #fromAssignments} compute the frontier and area alone.
 */
public final class Mauve {

  private Mauve() {}

  /** MAUVE between {@code real} and {@code synthetic} with {@link MauveOptions#defaults()}. */
  public static MauveResult compute(EmbeddingMatrix real, EmbeddingMatrix synthetic) {
    return compute(real, synthetic, MauveOptions.defaults());
  }

  /**
   * MAUVE between {@code real} (P) and {@code synthetic} (Q).
   *
   * @throws IllegalArgumentException if a set is empty, dimensions differ, or there are more
   *     clusters than rows in total
   * @throws IllegalStateException if L2 normalisation meets a zero row
   */
  public static MauveResult compute(
      EmbeddingMatrix real, EmbeddingMatrix synthetic, MauveOptions options) {
    Checks.rowsAtLeast(real, "real", 1);
    Checks.rowsAtLeast(synthetic, "synthetic", 1);
    Checks.sameDimension(real, "real", synthetic, "synthetic");
    Objects.requireNonNull(options, "options");
    int np = real.rows();
    int nq = synthetic.rows();
    int k = options.clusters() == 0 ? MauveOptions.autoClusters(np, nq) : options.clusters();
    if (k > np + nq) {
      throw new IllegalArgumentException(
          "clusters must not exceed the number of rows, got clusters=" + k + " rows=" + (np + nq));
    }
    EmbeddingMatrix all = EmbeddingMatrix.concat(List.of(real, synthetic));
    if (options.l2Normalize()) {
      all = all.normalizeRows();
    }
    double[][] x = Checks.toDouble(all);
    if (options.explainedVariance() < 1 && x.length >= 2) {
      x = Pca.project(x, options.explainedVariance());
    }
    int[] labels =
        KMeans.assign(x, k, options.restarts(), options.maxIterations(), options.seed());
    return fromAssignments(
        Arrays.copyOfRange(labels, 0, np), Arrays.copyOfRange(labels, np, np + nq), k, options);
  }

  /**
   * MAUVE from fixed cluster assignments: histogram P counts {@code pLabels}, Q counts {@code
   * qLabels}, over {@code clusters} bins. Only {@link MauveOptions#gridSize()} and {@link
   * MauveOptions#scalingConstant()} are used.
   *
   * @throws IllegalArgumentException if a label array is empty or a label is outside [0,
   *     clusters)
   */
  public static MauveResult fromAssignments(
      int[] pLabels, int[] qLabels, int clusters, MauveOptions options) {
    Objects.requireNonNull(pLabels, "pLabels");
    Objects.requireNonNull(qLabels, "qLabels");
    Checks.positive(clusters, "clusters");
    return fromHistograms(
        histogram(pLabels, clusters, "pLabels"), histogram(qLabels, clusters, "qLabels"), options);
  }

  private static double[] histogram(int[] labels, int clusters, String name) {
    if (labels.length == 0) {
      throw new IllegalArgumentException(name + " must not be empty, got length=0");
    }
    double[] h = new double[clusters];
    for (int i = 0; i < labels.length; i++) {
      int c = labels[i];
      if (c < 0 || c >= clusters) {
        throw new IllegalArgumentException(
            name + "[" + i + "] must be in [0, " + clusters + "), got " + c);
      }
      h[c]++;
    }
    return h;
  }

  /**
   * MAUVE from two histograms (non-negative weights, normalised here to sum 1). Only {@link
   * MauveOptions#gridSize()} and {@link MauveOptions#scalingConstant()} are used.
   *
   * @throws IllegalArgumentException if lengths differ, a weight is negative or not finite, or a
   *     histogram sums to 0
   */
  public static MauveResult fromHistograms(double[] p, double[] q, MauveOptions options) {
    Objects.requireNonNull(options, "options");
    double[] pn = normalise(p, "p");
    double[] qn = normalise(q, "q");
    if (pn.length != qn.length) {
      throw new IllegalArgumentException(
          "p and q must have one length, got p.length=" + pn.length + " q.length=" + qn.length);
    }
    int m = options.gridSize();
    double c = options.scalingConstant();
    double[][] curve = new double[m + 2][];
    curve[0] = new double[] {0, 1};
    double[] r = new double[pn.length];
    for (int g = 0; g < m; g++) {
      // lambda decreasing, so that x increases along the curve
      double lambda = lambdaAt(m - 1 - g, m);
      for (int i = 0; i < r.length; i++) {
        r[i] = lambda * pn[i] + (1 - lambda) * qn[i];
      }
      curve[g + 1] = new double[] {Math.exp(-c * kl(qn, r)), Math.exp(-c * kl(pn, r))};
    }
    curve[m + 1] = new double[] {1, 0};
    return new MauveResult(area(curve), pn, qn, curve);
  }

  /** The i-th of m mixture weights, evenly spaced over [1e-6, 1 - 1e-6] like numpy.linspace. */
  static double lambdaAt(int i, int m) {
    double lo = 1e-6;
    double hi = 1 - 1e-6;
    return i == m - 1 ? hi : lo + i * ((hi - lo) / (m - 1));
  }

  /** KL(a || b) in nats, clamped at 0; b > 0 wherever a > 0 (callers guarantee it). */
  static double kl(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] > 0) {
        s += a[i] * Math.log(a[i] / b[i]);
      }
    }
    return Math.max(0.0, s);
  }

  /** Trapezoidal area under the points, sorted by x ascending then y descending. */
  static double area(double[][] curve) {
    double[][] pts = curve.clone();
    Arrays.sort(
        pts,
        (u, v) -> u[0] != v[0] ? Double.compare(u[0], v[0]) : Double.compare(v[1], u[1]));
    double a = 0;
    for (int i = 1; i < pts.length; i++) {
      a += (pts[i][0] - pts[i - 1][0]) * 0.5 * (pts[i][1] + pts[i - 1][1]);
    }
    return Math.min(1.0, a);
  }

  private static double[] normalise(double[] h, String name) {
    Objects.requireNonNull(h, name);
    if (h.length == 0) {
      throw new IllegalArgumentException(name + " must not be empty, got length=0");
    }
    double sum = 0;
    for (int i = 0; i < h.length; i++) {
      if (!(h[i] >= 0) || !Double.isFinite(h[i])) {
        throw new IllegalArgumentException(
            name + "[" + i + "] must be finite and >= 0, got " + h[i]);
      }
      sum += h[i];
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException(name + " must have positive total mass, got sum=" + sum);
    }
    double[] out = new double[h.length];
    for (int i = 0; i < h.length; i++) {
      out[i] = h[i] / sum;
    }
    return out;
  }
}
