package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.CholeskyDecomposition;
import org.junit.jupiter.api.Test;

class FrechetDistanceTest {

  /** scipy.linalg.sqrtm(C1 @ C2) on the same float32 inputs (reference.py). */
  @Test
  void matchesScipyOnFixedInputs() {
    for (JsonNode c : Reference.get().get("fid")) {
      String name = c.get("name").asText();
      EmbeddingMatrix a = EmbeddingMatrix.of(Reference.floats(c.get("a")));
      EmbeddingMatrix b = EmbeddingMatrix.of(Reference.floats(c.get("b")));
      double actual = FrechetDistance.between(a, b);
      if (name.startsWith("singular")) {
        // sqrtm of a singular product is itself only accurate to ~1e-8 relative; the
        // eigenvalue route (numpy eigvals of C1 C2) is the sharper reference here.
        assertThat(actual).as(name).isCloseTo(c.get("fid_eig").asDouble(), within(1e-7));
        assertThat(actual).as(name).isCloseTo(c.get("fid").asDouble(), within(1e-6));
      } else {
        double expected = c.get("fid").asDouble();
        assertThat(actual).as(name).isCloseTo(expected, within(1e-9 * Math.max(1, expected)));
      }
    }
  }

  /**
   * A square of side 2 against the same square halved and moved by (2.5, -0.5): by hand, means
   * (1, 1) and (3.5, 0.5), so the mean term is 2.5^2 + 0.5^2 = 6.5; covariances diag(4/3, 4/3) and
   * diag(1/3, 1/3) (unbiased), so the covariance term is 2 (sqrt(4/3) - sqrt(1/3))^2 = 2/3 and the
   * spread ratio (8/3) / (2/3) = 4; the total is the FID itself.
   */
  @Test
  void partsSplitTheDistanceIntoMeanAndSpread() {
    double[][] a = {{0, 0}, {2, 0}, {0, 2}, {2, 2}};
    double[][] b = {{3, 0}, {4, 0}, {3, 1}, {4, 1}};
    FrechetDistance.Parts p = FrechetDistance.parts(a, b);
    assertThat(p.meanTerm()).isCloseTo(6.5, within(1e-12));
    assertThat(p.covarianceTerm()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(p.traceA()).isCloseTo(8.0 / 3, within(1e-12));
    assertThat(p.traceB()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(p.spreadRatio()).isCloseTo(4.0, within(1e-12));
    assertThat(p.total()).isCloseTo(6.5 + 2.0 / 3, within(1e-12));
    assertThat(p.total()).isEqualTo(FrechetDistance.between(a, b));
    assertThat(FrechetDistance.parts(b, a).spreadRatio()).isCloseTo(0.25, within(1e-12));
  }

  /** Diagonal covariances commute: FID = ||m1 - m2||^2 + sum_i (sqrt(a_i) - sqrt(b_i))^2. */
  @Test
  void closedFormForDiagonalGaussians() {
    double[] m1 = {1, 2, 3};
    double[] m2 = {0, 2, 5};
    double[] a = {4, 1, 0.25};
    double[] b = {1, 9, 0.25};
    double expected = 1 + 0 + 4 + (2 - 1) * (2 - 1) + (1 - 3) * (1 - 3) + 0;
    assertThat(FrechetDistance.ofGaussians(m1, diag(a), m2, diag(b)))
        .isCloseTo(expected, within(1e-12));
  }

  /**
   * Large samples from two known Gaussians approach the closed form. Tolerance: 5 standard
   * deviations of the sample FID plus its bias, both measured by 200 numpy replications of the
   * same setting in reference.py (sd 0.025, bias +0.004); two-sided false-failure rate about
   * 6e-7 under a normal approximation.
   */
  @Test
  void largeSamplesFromKnownGaussiansApproachTheClosedForm() {
    JsonNode g = Reference.get().get("gaussian_fid");
    double[] m1 = Reference.vector(g.get("mean1"));
    double[] m2 = Reference.vector(g.get("mean2"));
    double[][] c1 = Reference.matrix(g.get("cov1"));
    double[][] c2 = Reference.matrix(g.get("cov2"));
    double exact = g.get("fid").asDouble();
    assertThat(FrechetDistance.ofGaussians(m1, c1, m2, c2)).isCloseTo(exact, within(1e-10));

    int n = g.get("n").asInt();
    double[][] x = sample(m1, c1, n, 11);
    double[][] y = sample(m2, c2, n, 12);
    double tolerance =
        5 * g.get("sample_sd").asDouble() + Math.abs(g.get("sample_mean").asDouble() - exact);
    assertThat(FrechetDistance.between(x, y)).isCloseTo(exact, within(tolerance));
  }

  @Test
  void zeroForIdenticalSetsAndSymmetric() {
    EmbeddingMatrix a = TestData.gaussian(60, 12, 0.5, 1);
    EmbeddingMatrix b = TestData.gaussian(70, 12, -0.2, 2);
    assertThat(FrechetDistance.between(a, a)).isCloseTo(0.0, within(1e-9));
    assertThat(FrechetDistance.between(a, b))
        .isCloseTo(FrechetDistance.between(b, a), within(1e-9))
        .isGreaterThan(0.5);
  }

  @Test
  void rejectsBadInputNamingIt() {
    EmbeddingMatrix a = TestData.gaussian(5, 3, 0, 1);
    assertThatThrownBy(() -> FrechetDistance.between(a, TestData.gaussian(1, 3, 0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("b needs at least 2 rows, got rows=1");
    assertThatThrownBy(() -> FrechetDistance.between(a, TestData.gaussian(5, 4, 0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a.dimension=3 b.dimension=4");
    double[][] nan = {{0, 1}, {Double.NaN, 2}};
    assertThatThrownBy(() -> FrechetDistance.between(nan, new double[][] {{0, 1}, {1, 1}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a[1][0] must be finite, got NaN");
    assertThatThrownBy(
            () -> FrechetDistance.ofGaussians(
                new double[] {0, 0}, new double[][] {{1, 0.5}, {0.2, 1}},
                new double[] {0, 0}, diag(new double[] {1, 1})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cov1 must be symmetric");
  }

  private static double[][] diag(double[] v) {
    double[][] m = new double[v.length][v.length];
    for (int i = 0; i < v.length; i++) {
      m[i][i] = v[i];
    }
    return m;
  }

  private static double[][] sample(double[] mean, double[][] cov, int n, long seed) {
    double[][] l = new CholeskyDecomposition(new Array2DRowRealMatrix(cov)).getL().getData();
    SplittableRandom r = new SplittableRandom(seed);
    int d = mean.length;
    double[][] out = new double[n][d];
    double[] z = new double[d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        z[j] = TestData.normal(r);
      }
      for (int j = 0; j < d; j++) {
        double s = mean[j];
        for (int k = 0; k <= j; k++) {
          s += l[j][k] * z[k];
        }
        out[i][j] = s;
      }
    }
    return out;
  }
}
