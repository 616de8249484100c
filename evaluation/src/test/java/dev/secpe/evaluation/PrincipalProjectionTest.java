package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrincipalProjectionTest {

  private static EmbeddingMatrix gaussian(int n, double[] sd, double shift, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    float[][] rows = new float[n][sd.length];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < sd.length; j++) {
        rows[i][j] = (float) (shift + sd[j] * TestData.normal(rng));
      }
    }
    return EmbeddingMatrix.of(rows);
  }

  @Test
  void keepingEveryComponentIsARotationSoTheFrechetDistanceIsUnchanged() {
    // FID is invariant under orthogonal maps and translations: an independent fact of the formula.
    double[] sd = {3, 2, 1, 0.5, 0.25};
    EmbeddingMatrix ref = gaussian(400, sd, 0, 1);
    EmbeddingMatrix a = gaussian(300, sd, 0.2, 2);
    EmbeddingMatrix b = gaussian(300, sd, -0.1, 3);
    PrincipalProjection p = PrincipalProjection.fit(ref, 5);
    assertThat(p.frechetDistance(a, b)).isCloseTo(FrechetDistance.between(a, b), within(1e-6));
  }

  @Test
  void theLeadingComponentIsTheDirectionOfLargestVariance() {
    double[] sd = {0.1, 5, 0.1};
    EmbeddingMatrix ref = gaussian(2000, sd, 0, 4);
    double[][] x = PrincipalProjection.fit(ref, 1).project(ref);
    double var = 0;
    for (double[] r : x) {
      var += r[0] * r[0] / x.length;
    }
    // The variance along the leading direction is the largest one, 25, within sampling error
    // (standard error of a variance estimate: sqrt(2/n) * 25 = 0.79 at n = 2000; 4 of them).
    assertThat(var).isCloseTo(25.0, within(3.2));
  }

  @Test
  void rejectsAComponentCountOutsideTheDimension() {
    EmbeddingMatrix ref = gaussian(10, new double[] {1, 1}, 0, 5);
    assertThatThrownBy(() -> PrincipalProjection.fit(ref, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("components=3");
    assertThatThrownBy(() -> PrincipalProjection.fit(ref, 0))
        .hasMessageContaining("components=0");
  }

  /**
   * Fewer rows than dimensions (12 in 40): the reference lies in an 11-dimensional affine space, so
   * its 11 components hold all of its variance (their variances sum to the trace of its covariance),
   * the projected coordinates are uncorrelated with falling variances, and the pairwise distances
   * of reference rows are kept exactly.
   */
  @Test
  void withFewerRowsThanDimensionsTheComponentsHoldAllTheVariance() {
    double[] sd = new double[40];
    for (int j = 0; j < sd.length; j++) {
      sd[j] = 1.0 / (1 + j);
    }
    EmbeddingMatrix ref = gaussian(12, sd, 0.3, 9);
    double[][] x = PrincipalProjection.fit(ref, 11).project(ref);
    double trace = 0;
    double[] mean = new double[40];
    for (int i = 0; i < 12; i++) {
      for (int j = 0; j < 40; j++) {
        mean[j] += ref.row(i)[j] / 12.0;
      }
    }
    for (int i = 0; i < 12; i++) {
      for (int j = 0; j < 40; j++) {
        double z = ref.row(i)[j] - mean[j];
        trace += z * z / 11;
      }
    }
    double total = 0;
    double previous = Double.POSITIVE_INFINITY;
    for (int a = 0; a < 11; a++) {
      double var = 0;
      for (double[] r : x) {
        var += r[a] * r[a] / 11;
      }
      assertThat(var).isLessThanOrEqualTo(previous + 1e-9);
      previous = var;
      total += var;
      for (int b = a + 1; b < 11; b++) {
        double cov = 0;
        for (double[] r : x) {
          cov += r[a] * r[b] / 11;
        }
        assertThat(cov).isCloseTo(0.0, within(1e-6));
      }
    }
    assertThat(total).isCloseTo(trace, within(1e-6 * trace));
    double direct = 0;
    double projected = 0;
    for (int j = 0; j < 40; j++) {
      double z = ref.row(0)[j] - ref.row(5)[j];
      direct += z * z;
    }
    for (int a = 0; a < 11; a++) {
      projected += (x[0][a] - x[5][a]) * (x[0][a] - x[5][a]);
    }
    assertThat(projected).isCloseTo(direct, within(1e-6 * direct));
  }

  /**
   * MAUVE's PCA with fewer rows than dimensions (30 in 100, as 100 synthetic and 100 held-out
   * texts in 384): keeping all the variance keeps every pairwise distance, and keeping 90% keeps
   * at least 90% of the summed squared distances (their sum is 2n times the total variance).
   */
  @Test
  void mauvesPcaWithFewerRowsThanDimensionsKeepsTheDistancesItShould() {
    double[] sd = new double[100];
    for (int j = 0; j < sd.length; j++) {
      sd[j] = 1.0 / Math.sqrt(1 + j);
    }
    EmbeddingMatrix m = gaussian(30, sd, 0.1, 12);
    double[][] x = Checks.toDouble(m);
    double[][] all = Pca.project(x, 1.0);
    double[][] most = Pca.project(x, 0.9);
    double direct = 0;
    double kept = 0;
    for (int a = 0; a < 30; a++) {
      for (int b = a + 1; b < 30; b++) {
        double d0 = 0;
        for (int j = 0; j < 100; j++) {
          d0 += (x[a][j] - x[b][j]) * (x[a][j] - x[b][j]);
        }
        double d1 = 0;
        for (int c = 0; c < all[a].length; c++) {
          d1 += (all[a][c] - all[b][c]) * (all[a][c] - all[b][c]);
        }
        double d2 = 0;
        for (int c = 0; c < most[a].length; c++) {
          d2 += (most[a][c] - most[b][c]) * (most[a][c] - most[b][c]);
        }
        assertThat(d1).isCloseTo(d0, within(1e-6 * d0));
        direct += d0;
        kept += d2;
      }
    }
    assertThat(kept / direct).isGreaterThanOrEqualTo(0.9 - 1e-9);
    assertThat(most[0].length).isLessThan(all[0].length);
  }

  /**
   * An axis is a direction up to its sign; the projection fixes the sign (each axis's
   * largest-magnitude component positive) so that it does not depend on the eigen-solver, on the
   * covariance route (400 rows in 40 dimensions) and the Gram route (12 rows in 40).
   */
  @Test
  void eachAxisHasItsLargestComponentPositive() {
    double[] sd = new double[40];
    for (int j = 0; j < sd.length; j++) {
      sd[j] = 1.0 / (1 + j);
    }
    for (int n : new int[] {400, 12}) {
      double[][] x = Checks.toDouble(gaussian(n, sd, 0.3, 21));
      double[][] basis = new PrincipalAxes(x, Moments.mean(x)).basis(10);
      for (int q = 0; q < 10; q++) {
        double largest = 0;
        for (double[] row : basis) {
          largest = Math.abs(row[q]) > Math.abs(largest) ? row[q] : largest;
        }
        assertThat(largest).as("axis %d with %d rows", q, n).isPositive();
      }
    }
  }
}
