package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import de.bwaldvogel.liblinear.Model;
import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The downstream classifier's logistic regression: a hand-worked optimum, the optimality
 * condition checked by a gradient written here, LIBLINEAR's stopping rule, and agreement with
 * LIBLINEAR for Java ({@link LiblinearReference}), an independent implementation of the same
 * model.
 */
class LogisticRegressionTest {

  /**
   * Two points, x = +1 of class 0 and x = -1 of class 1, C = 1. By symmetry the intercept is 0,
   * and f(w) = w^2 / 2 + 2 log(1 + e^-w) is least where w = 2 / (1 + e^w): 0.674... found here by
   * bisection.
   */
  @Test
  void aSymmetricPairHasTheHandWorkedOptimum() {
    EmbeddingMatrix x = EmbeddingMatrix.of(new float[][] {{1}, {-1}});
    double[] w = LogisticRegression.fit(x, new int[] {0, 1}, 2, 1.0, 1e-12).weights()[0];
    double lo = 0;
    double hi = 2;
    for (int i = 0; i < 200; i++) {
      double mid = (lo + hi) / 2;
      if (mid - 2 / (1 + Math.exp(mid)) < 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    assertThat(lo).isBetween(0.674, 0.675);
    assertThat(w[0]).isCloseTo(lo, within(1e-9));
    assertThat(w[1]).isCloseTo(0.0, within(1e-9));
  }

  /** Three shifted Gaussian classes in 6 dimensions. */
  private static EmbeddingMatrix classes(int n, long seed, int[] y) {
    SplittableRandom r = new SplittableRandom(seed);
    float[][] x = new float[n][6];
    for (int i = 0; i < n; i++) {
      y[i] = r.nextInt(3);
      for (int j = 0; j < 6; j++) {
        x[i][j] = (float) (TestData.normal(r) + (j % 3 == y[i] ? 1.2 : 0));
      }
    }
    return EmbeddingMatrix.of(x);
  }

  /** The gradient of f for class m (one-vs-rest labels), written out independently. */
  private static double[] gradient(EmbeddingMatrix x, int[] y, int m, double c, double[] w) {
    int d = x.dimension();
    double[] g = w.clone();
    for (int i = 0; i < x.rows(); i++) {
      float[] row = x.row(i);
      double s = y[i] == m ? 1 : -1;
      double z = w[d];
      for (int j = 0; j < d; j++) {
        z += w[j] * row[j];
      }
      double coef = -c * s / (1 + Math.exp(s * z)); // d/dz of C log(1 + e^(-s z))
      for (int j = 0; j < d; j++) {
        g[j] += coef * row[j];
      }
      g[d] += coef;
    }
    return g;
  }

  private static double norm(double[] v) {
    double s = 0;
    for (double a : v) {
      s += a * a;
    }
    return Math.sqrt(s);
  }

  @Test
  void eachModelStopsByLiblinearsRuleAndATightToleranceReachesTheOptimum() {
    int n = 240;
    int[] y = new int[n];
    EmbeddingMatrix x = classes(n, 1, y);
    double c = 0.5;
    for (double tolerance : new double[] {0.01, 1e-6}) {
      double[][] w = LogisticRegression.fit(x, y, 3, c, tolerance).weights();
      assertThat(w).hasNumberOfRows(3);
      for (int m = 0; m < 3; m++) {
        int pos = 0;
        for (int v : y) {
          pos += v == m ? 1 : 0;
        }
        double rule = tolerance * Math.max(Math.min(pos, n - pos), 1) / n;
        double g = norm(gradient(x, y, m, c, w[m]));
        double g0 = norm(gradient(x, y, m, c, new double[7]));
        assertThat(g).as("model %d, tolerance %s", m, tolerance).isLessThanOrEqualTo(rule * g0);
      }
    }
  }

  @Test
  void twoClassWeightsEqualLiblinearsAtATightTolerance() {
    int n = 300;
    int[] y3 = new int[n];
    EmbeddingMatrix x = classes(n, 2, y3);
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      y[i] = y3[i] == 1 ? 1 : 0;
    }
    double[] ours = LogisticRegression.fit(x, y, 2, 2.0, 1e-10).weights()[0];
    double[] theirs = LiblinearReference.binaryWeights(LiblinearReference.fit(x, y, 2.0, 1e-10));
    assertThat(ours).hasSameSizeAs(theirs);
    for (int k = 0; k < ours.length; k++) {
      assertThat(ours[k]).as("weight %d", k).isCloseTo(theirs[k], within(1e-7 * (1 + Math.abs(theirs[k]))));
    }
  }

  @Test
  void multiClassPredictionsEqualLiblinearsAtItsDefaultTolerance() {
    int[] ytr = new int[400];
    EmbeddingMatrix train = classes(400, 3, ytr);
    int[] yte = new int[2000];
    EmbeddingMatrix test = classes(2000, 4, yte);
    LogisticRegression ours = LogisticRegression.fit(train, ytr, 3, 1.0, 0.01);
    Model theirs = LiblinearReference.fit(train, ytr, 1.0, 0.01);
    int[] reference = LiblinearReference.predict(theirs, test);
    int differ = 0;
    for (int i = 0; i < test.rows(); i++) {
      differ += ours.predict(test.row(i)) == reference[i] ? 0 : 1;
    }
    // both stop near the one optimum; only a row within that distance of a boundary may differ
    assertThat(differ).isLessThanOrEqualTo(4);
  }
}
