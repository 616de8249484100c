package dev.secpe.evaluation;

/**
 * Principal component projection keeping a share of the variance (package-private): it picks how
 * many of {@link PrincipalAxes}' components to keep; {@link PrincipalProjection} projects.
 */
final class Pca {

  private Pca() {}

  /**
   * Projects the centred rows onto the fewest leading principal components whose cumulative
   * explained-variance ratio reaches {@code explainedVariance}; at least one component.
   */
  static double[][] project(double[][] x, double explainedVariance) {
    double[] mean = Moments.mean(x);
    PrincipalAxes axes = new PrincipalAxes(x, mean);
    double[] lambda = axes.variances(); // decreasing
    double total = 0;
    for (double l : lambda) {
      total += Math.max(0, l);
    }
    if (!(total > 0)) {
      return new double[x.length][1]; // every row alike: one component, all at the mean
    }
    int m = 1;
    double acc = 0;
    for (int i = 0; i < lambda.length; i++) {
      acc += Math.max(0, lambda[i]);
      m = i + 1;
      if (acc / total >= explainedVariance) {
        break;
      }
    }
    return new PrincipalProjection(mean, axes.basis(m), m).project(x);
  }
}
