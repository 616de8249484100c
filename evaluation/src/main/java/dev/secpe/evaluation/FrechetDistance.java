package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Objects;

/**
 * The Fréchet distance between two embedding sets, each summarised by a Gaussian with its sample
 * mean and covariance: the "FID" of Heusel et al., "GANs Trained by a Two Time-Scale Update Rule
 * Converge to a Local Nash Equilibrium" (NeurIPS 2017), computed on sentence embeddings instead of
 * Inception features, as SecPE (Table 3) and DPGA-TextSyn report it:
 *
 * <pre>
 *   FID = ||m1 - m2||^2 + tr(C1) + tr(C2) - 2 tr((C1 C2)^{1/2})
 * </pre>
 *
 * <p>Means are sample means; covariances are unbiased (divisor n - 1), as {@code numpy.cov}. The
 * trace of the matrix square root is computed without a non-symmetric {@code sqrtm}: with S =
 * C1^{1/2} (from the symmetric eigen-decomposition of C1), C1 C2 is similar to the symmetric
 * positive semi-definite matrix S C2 S, so {@code tr((C1 C2)^{1/2}) = sum_i sqrt(lambda_i(S C2
 * S))}. Rounding can make eigenvalues of these PSD matrices slightly negative (of the order of
 * 1e-16 times the largest); they are clamped to 0 before the square root, and a final value
 * below 0 (FID(X, X) can come out as -1e-15) is clamped to 0. Both clamps move the result by no
 * more than the rounding error of the eigen-decomposition.
 *
 * <p>Accuracy: with full-rank covariances the result agrees with {@code scipy.linalg.sqrtm} to
 * about 1e-12 relative. With rank-deficient covariances (fewer rows than dimensions, or collinear
 * embeddings) the zero eigenvalues carry rounding noise of order 1e-16 ||C||, whose square roots
 * are of order 1e-8 sqrt(||C||): expect agreement to about 1e-7 relative (scipy's own sqrtm is
 * no better there).
 *
 * <p>Stateless and thread-safe. Cost: O(n d^2 + d^3); for d = 384 (MiniLM) a few hundred ms.
 */
public final class FrechetDistance {

  private FrechetDistance() {}

  /**
   * FID between the rows of {@code a} and the rows of {@code b}.
   *
   * @throws IllegalArgumentException if either has fewer than 2 rows or the dimensions differ
   */
  public static double between(EmbeddingMatrix a, EmbeddingMatrix b) {
    Checks.TwoSets s = Checks.twoSets(a, b, 2);
    return between(s.a(), s.b());
  }

  /**
   * FID between two sets of row vectors.
   *
   * @throws IllegalArgumentException if either has fewer than 2 rows, rows differ in length, or a
   *     value is not finite
   */
  public static double between(double[][] a, double[][] b) {
    Checks.TwoSets s = Checks.twoSets(a, b, 2);
    double[][] x = s.a();
    double[][] y = s.b();
    double[] m1 = Moments.mean(x);
    double[] m2 = Moments.mean(y);
    int d = m1.length;
    if (Math.min(x.length, y.length) <= d && (long) x.length * y.length <= GRAM_LIMIT) {
      return fromGram(x, m1, y, m2);
    }
    return fromMoments(m1, Moments.covariance(x, m1), m2, Moments.covariance(y, m2));
  }

  /**
   * What an FID is made of, for reading why two sets differ: the FID, the squared distance between
   * the means, and the two sets' total variances {@code tr(C1)} and {@code tr(C2)}; the rest of the
   * FID is the covariance term {@code tr(C1) + tr(C2) - 2 tr((C1 C2)^{1/2})}. A set gathered round
   * the typical points of the other has a small mean term and a spread ratio {@code tr(C1) / tr(C2)}
   * below 1; FID charges it through the covariance term.
   *
   * @param total the FID, as {@link #between(double[][], double[][])} gives it
   * @param meanTerm {@code ||m1 - m2||^2}
   * @param traceA total variance of the first set (unbiased, divisor n - 1)
   * @param traceB total variance of the second set
   */
  public record Parts(double total, double meanTerm, double traceA, double traceB) {

    /** FID minus the mean term (never below 0). */
    public double covarianceTerm() {
      return Math.max(0.0, total - meanTerm);
    }

    /** {@code tr(C1) / tr(C2)}: how widely the first set spreads, relative to the second. */
    public double spreadRatio() {
      return traceA / traceB;
    }
  }

  /**
   * {@link #between(double[][], double[][])} with its {@link Parts}.
   *
   * @throws IllegalArgumentException as {@link #between(double[][], double[][])}
   */
  public static Parts parts(double[][] a, double[][] b) {
    double fid = between(a, b);
    double[] m1 = Moments.mean(a);
    double[] m2 = Moments.mean(b);
    return new Parts(fid, meanTerm(m1, m2), totalVariance(a, m1), totalVariance(b, m2));
  }

  /** {@code ||m1 - m2||^2}. */
  private static double meanTerm(double[] m1, double[] m2) {
    double sum = 0;
    for (int j = 0; j < m1.length; j++) {
      double diff = m1[j] - m2[j];
      sum += diff * diff;
    }
    return sum;
  }

  private static double totalVariance(double[][] x, double[] m) {
    double sum = 0;
    for (double[] r : x) {
      for (int j = 0; j < m.length; j++) {
        double v = r[j] - m[j];
        sum += v * v;
      }
    }
    return sum / (x.length - 1.0);
  }

  /** Largest n1 * n2 for which the Gram form below is used. */
  static final long GRAM_LIMIT = 4_000_000L;

  /**
   * The Gram form, for sets with fewer rows than dimensions (e.g. 100 synthetic texts in 384
   * dimensions, where C1 is rank-deficient): with centred rows X1 (n1 x d) and X2 (n2 x d), the
   * non-zero eigenvalues of C1 C2 are those of A A^T with A = X1 X2^T / sqrt((n1-1)(n2-1)), so
   * tr (C1 C2)^{1/2} is the sum of the singular values of A (an n1 x n2 matrix). Exact algebra,
   * and an SVD of a small matrix instead of eigen-decompositions of singular d x d ones.
   */
  static double fromGram(double[][] x, double[] m1, double[][] y, double[] m2) {
    int n1 = x.length;
    int n2 = y.length;
    int d = m1.length;
    double[][] xc = centred(x, m1);
    double[][] yc = centred(y, m2);
    double scale = 1.0 / Math.sqrt((n1 - 1.0) * (n2 - 1.0));
    double[][] a = new double[n1][n2];
    double meanTerm = meanTerm(m1, m2);
    double trace = 0;
    for (double[] r : xc) {
      for (double v : r) {
        trace += v * v / (n1 - 1.0);
      }
    }
    for (double[] r : yc) {
      for (double v : r) {
        trace += v * v / (n2 - 1.0);
      }
    }
    for (int i = 0; i < n1; i++) {
      for (int k = 0; k < n2; k++) {
        double s = 0;
        double[] u = xc[i];
        double[] w = yc[k];
        for (int j = 0; j < d; j++) {
          s += u[j] * w[j];
        }
        a[i][k] = s * scale;
      }
    }
    double nuclear = 0;
    for (double sv : Moments.singularValues(a)) {
      nuclear += sv;
    }
    return Math.max(0.0, meanTerm + trace - 2 * nuclear);
  }

  private static double[][] centred(double[][] x, double[] m) {
    double[][] c = new double[x.length][m.length];
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < m.length; j++) {
        c[i][j] = x[i][j] - m[j];
      }
    }
    return c;
  }

  /**
   * The Fréchet distance between the Gaussians N(mean1, cov1) and N(mean2, cov2): the closed
   * form above, for known parameters.
   *
   * @throws IllegalArgumentException if shapes disagree, a value is not finite, or a covariance
   *     is not symmetric (relative tolerance 1e-9)
   */
  public static double ofGaussians(double[] mean1, double[][] cov1, double[] mean2, double[][] cov2) {
    Objects.requireNonNull(mean1, "mean1");
    Objects.requireNonNull(mean2, "mean2");
    int d = mean1.length;
    if (d == 0 || mean2.length != d) {
      throw new IllegalArgumentException(
          "means must have one positive dimension, got mean1.length=" + d + " mean2.length="
              + mean2.length);
    }
    checkVector(mean1, "mean1");
    checkVector(mean2, "mean2");
    double[][] c1 = Checks.finiteMatrix(cov1, "cov1", d);
    double[][] c2 = Checks.finiteMatrix(cov2, "cov2", d);
    checkSquareSymmetric(c1, "cov1", d);
    checkSquareSymmetric(c2, "cov2", d);
    return fromMoments(mean1, c1, mean2, c2);
  }

  private static void checkVector(double[] v, String name) {
    for (int i = 0; i < v.length; i++) {
      if (!Double.isFinite(v[i])) {
        throw new IllegalArgumentException(name + "[" + i + "] must be finite, got " + v[i]);
      }
    }
  }

  private static void checkSquareSymmetric(double[][] c, String name, int d) {
    if (c.length != d || c[0].length != d) {
      throw new IllegalArgumentException(
          name + " must be " + d + " x " + d + ", got " + c.length + " x " + c[0].length);
    }
    for (int a = 0; a < d; a++) {
      for (int b = a + 1; b < d; b++) {
        double scale = Math.max(1e-300, Math.max(Math.abs(c[a][b]), Math.abs(c[b][a])));
        if (Math.abs(c[a][b] - c[b][a]) > 1e-9 * scale) {
          throw new IllegalArgumentException(
              name + " must be symmetric, got " + name + "[" + a + "][" + b + "]=" + c[a][b]
                  + " " + name + "[" + b + "][" + a + "]=" + c[b][a]);
        }
      }
    }
  }

  static double fromMoments(double[] m1, double[][] c1, double[] m2, double[][] c2) {
    int d = m1.length;
    double meanTerm = meanTerm(m1, m2);
    double trace = 0;
    for (int j = 0; j < d; j++) {
      trace += c1[j][j] + c2[j][j];
    }
    double fid = meanTerm + trace - 2 * traceSqrtProduct(c1, c2);
    return Math.max(0.0, fid);
  }

  /** tr((C1 C2)^{1/2}) = sum sqrt(eig(S C2 S)), S = C1^{1/2}; negative eigenvalues clamped. */
  static double traceSqrtProduct(double[][] c1, double[][] c2) {
    double[][] s = psdSqrt(c1);
    double sum = 0;
    for (double lambda : Moments.eigenvalues(Moments.multiply(Moments.multiply(s, c2), s))) {
      sum += Math.sqrt(Math.max(0.0, lambda));
    }
    return sum;
  }

  /** The symmetric PSD square root V diag(sqrt(max(lambda, 0))) V^T. */
  static double[][] psdSqrt(double[][] c) {
    Moments.Eigen e = Moments.eigen(c);
    double[] lambda = e.values();
    double[][] v = e.vectors();
    int d = lambda.length;
    double[][] vs = new double[d][d];
    double[][] vt = new double[d][d];
    for (int i = 0; i < d; i++) {
      for (int k = 0; k < d; k++) {
        vs[i][k] = v[i][k] * Math.sqrt(Math.max(0.0, lambda[k]));
        vt[k][i] = v[i][k];
      }
    }
    return Moments.multiply(vs, vt);
  }
}
