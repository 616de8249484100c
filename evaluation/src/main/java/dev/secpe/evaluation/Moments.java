package dev.secpe.evaluation;

import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.EigenDecompositionSymmetric;

/** Sample mean, unbiased covariance and symmetric PSD helpers (package-private). */
final class Moments {

  private Moments() {}

  static double[] mean(double[][] x) {
    int n = x.length;
    int d = x[0].length;
    double[] m = new double[d];
    for (double[] r : x) {
      for (int j = 0; j < d; j++) {
        m[j] += r[j];
      }
    }
    for (int j = 0; j < d; j++) {
      m[j] /= n;
    }
    return m;
  }

  /** The unbiased sample covariance (divisor n - 1); needs n >= 2. */
  static double[][] covariance(double[][] x, double[] mean) {
    int n = x.length;
    int d = mean.length;
    double[][] c = new double[d][d];
    double[] z = new double[d];
    for (double[] r : x) {
      for (int j = 0; j < d; j++) {
        z[j] = r[j] - mean[j];
      }
      for (int a = 0; a < d; a++) {
        double za = z[a];
        if (za == 0) {
          continue;
        }
        double[] ca = c[a];
        for (int b = a; b < d; b++) {
          ca[b] += za * z[b];
        }
      }
    }
    for (int a = 0; a < d; a++) {
      for (int b = a; b < d; b++) {
        c[a][b] /= (n - 1);
        c[b][a] = c[a][b];
      }
    }
    return c;
  }

  /** (M + M^T) / 2, so that rounding cannot make a symmetric matrix look non-symmetric. */
  static double[][] symmetrize(double[][] m) {
    int d = m.length;
    double[][] s = new double[d][d];
    for (int a = 0; a < d; a++) {
      for (int b = a; b < d; b++) {
        double v = 0.5 * (m[a][b] + m[b][a]);
        s[a][b] = v;
        s[b][a] = v;
      }
    }
    return s;
  }

  /** Eigen-decomposition of a symmetric matrix (symmetrised first), eigenvalues decreasing. */
  static EigenDecompositionSymmetric eigen(double[][] symmetric) {
    return new EigenDecompositionSymmetric(
        new Array2DRowRealMatrix(symmetrize(symmetric), false),
        EigenDecompositionSymmetric.DEFAULT_EPSILON,
        true);
  }
}
