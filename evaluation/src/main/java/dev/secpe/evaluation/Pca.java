package dev.secpe.evaluation;

import org.hipparchus.linear.EigenDecompositionSymmetric;

/** Principal component projection keeping a share of the variance (package-private). */
final class Pca {

  private Pca() {}

  /**
   * Projects the centred rows onto the fewest leading principal components whose cumulative
   * explained-variance ratio reaches {@code explainedVariance}; at least one component.
   */
  static double[][] project(double[][] x, double explainedVariance) {
    double[] mean = Moments.mean(x);
    double[][] cov = Moments.covariance(x, mean);
    EigenDecompositionSymmetric e = Moments.eigen(cov);
    double[] lambda = e.getEigenvalues(); // decreasing
    double total = 0;
    for (double l : lambda) {
      total += Math.max(0, l);
    }
    int m = 1;
    if (total > 0) {
      double acc = 0;
      for (int i = 0; i < lambda.length; i++) {
        acc += Math.max(0, lambda[i]);
        if (acc / total >= explainedVariance) {
          m = i + 1;
          break;
        }
        m = i + 1;
      }
    }
    double[][] v = e.getV().getData();
    int d = mean.length;
    double[][] out = new double[x.length][m];
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < d; j++) {
        double z = x[i][j] - mean[j];
        if (z == 0) {
          continue;
        }
        double[] vj = v[j];
        double[] oi = out[i];
        for (int c = 0; c < m; c++) {
          oi[c] += z * vj[c];
        }
      }
    }
    return out;
  }
}
