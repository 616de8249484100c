package dev.secpe.evaluation;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import dev.secpe.core.EmbeddingMatrix;

/**
 * The downstream classifier as it was up to 0.1.0, on LIBLINEAR for Java 2.44 (test scope only):
 * an independent implementation of the model {@link LogisticRegression} fits, for the tests and
 * {@link DownstreamClassifierComparison}. Solver {@code L2R_LR}, features 1..d and an intercept
 * feature d + 1 of value 1 (regularised), classes 0..k-1 as labels.
 */
final class LiblinearReference {

  static {
    Linear.disableDebugOutput();
  }

  private LiblinearReference() {}

  /** A trained LIBLINEAR model. */
  static Model fit(EmbeddingMatrix x, int[] y, double c, double tolerance) {
    Problem problem = new Problem();
    problem.l = x.rows();
    problem.n = x.dimension() + 1;
    problem.bias = 1.0;
    problem.x = features(x);
    problem.y = new double[y.length];
    for (int i = 0; i < y.length; i++) {
      problem.y[i] = y[i];
    }
    return Linear.train(problem, new Parameter(SolverType.L2R_LR, c, tolerance));
  }

  /** The class LIBLINEAR predicts for each row of {@code x}. */
  static int[] predict(Model model, EmbeddingMatrix x) {
    Feature[][] rows = features(x);
    int[] out = new int[rows.length];
    for (int i = 0; i < rows.length; i++) {
      out[i] = (int) Math.round(Linear.predict(model, rows[i]));
    }
    return out;
  }

  /**
   * The weights of a two-class model as {@link LogisticRegression} orients them (class 0
   * positive): LIBLINEAR's first label is the one seen first in training.
   */
  static double[] binaryWeights(Model model) {
    double[] w = model.getFeatureWeights();
    double sign = model.getLabels()[0] == 0 ? 1 : -1;
    double[] out = new double[w.length];
    for (int k = 0; k < w.length; k++) {
      out[k] = sign * w[k];
    }
    return out;
  }

  private static Feature[][] features(EmbeddingMatrix m) {
    int d = m.dimension();
    Feature[][] out = new Feature[m.rows()][];
    float[] row = new float[d];
    for (int i = 0; i < m.rows(); i++) {
      m.copyRow(i, row, 0);
      Feature[] f = new Feature[d + 1];
      for (int j = 0; j < d; j++) {
        f[j] = new FeatureNode(j + 1, row[j]);
      }
      f[d] = new FeatureNode(d + 1, 1.0);
      out[i] = f;
    }
    return out;
  }
}
