package dev.secpe.evaluation;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import org.ojalgo.matrix.decomposition.Eigenvalue;
import org.ojalgo.matrix.decomposition.SingularValue;
import org.ojalgo.matrix.store.RawStore;

/**
 * Sample mean, unbiased covariance and the dense linear algebra of the metrics (package-private):
 * symmetric eigen-decompositions, singular values and products, by ojAlgo (Householder
 * tridiagonalisation and the implicit QL method for the eigen-decomposition, the EISPACK/JAMA
 * algorithms; Golub–Kahan for the singular values).
 */
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

  /**
   * An eigen-decomposition of a symmetric matrix: the eigenvalues decreasing, and {@code
   * vectors[i][k]} the i-th component of the unit eigenvector of {@code values[k]} (of either sign).
   */
  record Eigen(double[] values, double[][] vectors) {}

  /** Eigen-decomposition of a symmetric matrix (symmetrised first), eigenvalues decreasing. */
  static Eigen eigen(double[][] symmetric) {
    int d = symmetric.length;
    Eigenvalue<Double> evd = decomposed(symmetric, true);
    double[] values = new double[d];
    evd.getEigenvalues(values, Optional.empty());
    double[][] v = evd.getV().toRawCopy2D();
    Integer[] order = new Integer[d];
    for (int k = 0; k < d; k++) {
      order[k] = k;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer k) -> -values[k]).thenComparingInt(k -> k));
    double[] sortedValues = new double[d];
    double[][] sortedVectors = new double[d][d];
    for (int q = 0; q < d; q++) {
      int k = order[q];
      sortedValues[q] = values[k];
      for (int i = 0; i < d; i++) {
        sortedVectors[i][q] = v[i][k];
      }
    }
    return new Eigen(sortedValues, sortedVectors);
  }

  /** The eigenvalues of a symmetric matrix (symmetrised first), in no particular order. */
  static double[] eigenvalues(double[][] symmetric) {
    double[] values = new double[symmetric.length];
    decomposed(symmetric, false).getEigenvalues(values, Optional.empty());
    return values;
  }

  private static Eigenvalue<Double> decomposed(double[][] symmetric, boolean vectors) {
    int d = symmetric.length;
    Eigenvalue<Double> evd = Eigenvalue.R064.make(d, true);
    RawStore m = RawStore.wrap(symmetrize(symmetric));
    if (!(vectors ? evd.decompose(m) : evd.computeValuesOnly(m))) {
      throw new ArithmeticException("the eigen-decomposition of a " + d + " x " + d + " symmetric matrix did not converge");
    }
    return evd;
  }

  /** The singular values of a (rows x columns) matrix. */
  static double[] singularValues(double[][] a) {
    SingularValue<Double> svd = SingularValue.R064.make(RawStore.wrap(a));
    if (!svd.computeValuesOnly(RawStore.wrap(a))) {
      throw new ArithmeticException("the singular values of a " + a.length + " x " + a[0].length + " matrix did not converge");
    }
    return svd.getSingularValues().toRawCopy1D();
  }

  /** The product {@code a b}. */
  static double[][] multiply(double[][] a, double[][] b) {
    return RawStore.wrap(a).multiply(RawStore.wrap(b)).toRawCopy2D();
  }
}
