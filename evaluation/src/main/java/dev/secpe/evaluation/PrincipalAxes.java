package dev.secpe.evaluation;

/**
 * The principal axes of a set of rows (package-private): the variances along them, largest first,
 * and the leading directions. With more rows than dimensions they come from the d x d covariance;
 * with fewer (100 texts in 384 dimensions) from the n x n Gram matrix of the centred rows, whose
 * non-zero eigenvalues are the covariance's: if {@code G = X X^T / (n - 1)} has eigenpairs {@code
 * (lambda_i, u_i)}, the covariance {@code X^T X / (n - 1)} has unit eigenvectors {@code X^T u_i /
 * sqrt((n - 1) lambda_i)}. The covariance route does not always converge among the many zero
 * eigenvalues of a rank-deficient matrix; the Gram route has none to converge among.
 */
final class PrincipalAxes {

  private final double[][] centred; // Gram route only
  private final double[] variances;
  private final double[][] vectors; // d x d (covariance) or n x n (Gram)
  private final boolean gram;

  PrincipalAxes(double[][] x, double[] mean) {
    int n = x.length;
    int d = mean.length;
    this.gram = n - 1 < d;
    if (!gram) {
      Moments.Eigen e = Moments.eigen(Moments.covariance(x, mean));
      this.centred = null;
      this.variances = e.values();
      this.vectors = e.vectors();
      return;
    }
    double[][] c = new double[n][d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        c[i][j] = x[i][j] - mean[j];
      }
    }
    double[][] g = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int k = i; k < n; k++) {
        double s = 0;
        for (int j = 0; j < d; j++) {
          s += c[i][j] * c[k][j];
        }
        g[i][k] = s / (n - 1);
        g[k][i] = g[i][k];
      }
    }
    Moments.Eigen e = Moments.eigen(g);
    this.centred = c;
    this.variances = e.values();
    this.vectors = e.vectors();
  }

  /**
   * How many leading directions {@link #basis} can give: every dimension on the covariance route
   * (a direction without variance is still a direction); on the Gram route (fewer rows than
   * dimensions) the count of variances above {@code 1e-12} of the largest, at most n - 1 for n
   * rows and fewer when rows repeat.
   */
  int rank() {
    if (!gram) {
      return variances.length;
    }
    int q = 0;
    while (q < variances.length && variances[q] > 1e-12 * Math.max(1e-300, variances[0])) {
      q++;
    }
    return q;
  }

  /** The variances along the axes, largest first (by the Gram route, n of them: the rest are 0). */
  double[] variances() {
    return variances.clone();
  }

  /**
   * The {@code k} leading directions as the columns of a d x k matrix, each with its
   * largest-magnitude component positive (the first of equal ones; scikit-learn's {@code svd_flip}
   * convention), so that projections do not depend on the sign an eigen-solver happens to give.
   *
   * @throws IllegalArgumentException if fewer than {@code k} variances are positive on the Gram
   *     route (the rows span fewer dimensions)
   */
  double[][] basis(int k) {
    if (!gram) {
      int d = vectors.length;
      double[][] out = new double[d][k];
      for (int j = 0; j < d; j++) {
        System.arraycopy(vectors[j], 0, out[j], 0, k);
      }
      return withPositiveLargest(out);
    }
    int n = centred.length;
    int d = centred[0].length;
    double[][] out = new double[d][k];
    for (int q = 0; q < k; q++) {
      if (!(variances[q] > 1e-12 * Math.max(1e-300, variances[0]))) {
        throw new IllegalArgumentException(
            "components must be at most the reference's rank, got components=" + k + " with " + q
                + " positive variances among " + n + " rows");
      }
      double scale = 1 / Math.sqrt((n - 1) * variances[q]);
      for (int j = 0; j < d; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
          s += centred[i][j] * vectors[i][q];
        }
        out[j][q] = s * scale;
      }
    }
    return withPositiveLargest(out);
  }

  /** Flips each column whose largest-magnitude component (the first of equal ones) is negative. */
  private static double[][] withPositiveLargest(double[][] columns) {
    int d = columns.length;
    int k = d == 0 ? 0 : columns[0].length;
    for (int q = 0; q < k; q++) {
      int largest = 0;
      for (int j = 1; j < d; j++) {
        if (Math.abs(columns[j][q]) > Math.abs(columns[largest][q])) {
          largest = j;
        }
      }
      if (columns[largest][q] < 0) {
        for (int j = 0; j < d; j++) {
          columns[j][q] = -columns[j][q];
        }
      }
    }
    return columns;
  }
}
