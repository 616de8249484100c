package dev.secpe.evaluation;

import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.EigenDecompositionSymmetric;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.SingularValueDecomposition;

/**
 * An independent reference for the tests and the benchmark: FID's matrix-square-root trace, the
 * Gram form's nuclear norm and the eigenvalues of a covariance by Hipparchus, as the library
 * computed them up to 0.1.0. Test scope only.
 */
final class HipparchusReference {

  private HipparchusReference() {}

  /** tr((C1 C2)^{1/2}) = sum sqrt(eig(S C2 S)), S = C1^{1/2}. */
  static double traceSqrtProduct(double[][] c1, double[][] c2) {
    EigenDecompositionSymmetric e1 = eigen(c1);
    double[] lambda = e1.getEigenvalues();
    double[][] v = e1.getV().getData();
    int d = lambda.length;
    double[][] vs = new double[d][d];
    for (int i = 0; i < d; i++) {
      for (int k = 0; k < d; k++) {
        vs[i][k] = v[i][k] * Math.sqrt(Math.max(0.0, lambda[k]));
      }
    }
    RealMatrix s = new Array2DRowRealMatrix(vs, false).multiplyTransposed(new Array2DRowRealMatrix(v, false));
    RealMatrix m = s.multiply(new Array2DRowRealMatrix(c2, false)).multiply(s);
    double sum = 0;
    for (double l : eigen(m.getData()).getEigenvalues()) {
      sum += Math.sqrt(Math.max(0.0, l));
    }
    return sum;
  }

  /** The sum of the singular values. */
  static double nuclearNorm(double[][] a) {
    double sum = 0;
    for (double s : new SingularValueDecomposition(new Array2DRowRealMatrix(a, false)).getSingularValues()) {
      sum += s;
    }
    return sum;
  }

  /** The eigenvalues of a symmetric matrix, decreasing. */
  static double[] eigenvalues(double[][] symmetric) {
    return eigen(symmetric).getEigenvalues();
  }

  private static EigenDecompositionSymmetric eigen(double[][] symmetric) {
    return new EigenDecompositionSymmetric(new Array2DRowRealMatrix(Moments.symmetrize(symmetric), false),
        EigenDecompositionSymmetric.DEFAULT_EPSILON, true);
  }
}
