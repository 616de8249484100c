package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KernelDistanceTest {

  /**
   * By hand, d = 1, k(x, y) = (xy + 1)^3: within a = {0, 1} the one pair gives 1; within b = {2, 3}
   * it gives 7^3 = 343; across, 1, 1, 27 and 64 average 23.25. KID = 1 + 343 - 2 * 23.25.
   */
  @Test
  void handComputedOneDimensionalCase() {
    double kid = KernelDistance.between(new double[][] {{0}, {1}}, new double[][] {{2}, {3}});
    assertThat(kid).isCloseTo(297.5, within(1e-12));
  }

  /**
   * By hand, d = 2 (the kernel divides the dot product by d): within a = {(1,0), (0,1)} the dot
   * is 0, kernel 1; within b = {(1,1), (1,1)} it is 2, kernel (2/2 + 1)^3 = 8; across every dot
   * is 1, kernel 1.5^3 = 3.375. KID = 1 + 8 - 2 * 3.375.
   */
  @Test
  void handComputedTwoDimensionalCaseDividesByTheDimension() {
    double kid = KernelDistance.between(new double[][] {{1, 0}, {0, 1}}, new double[][] {{1, 1}, {1, 1}});
    assertThat(kid).isCloseTo(2.25, within(1e-12));
  }

  @Test
  void isSymmetric() {
    SplittableRandom rng = new SplittableRandom(3);
    double[][] a = gaussian(rng, 12, 5, 0);
    double[][] b = gaussian(rng, 17, 5, 0.4);
    assertThat(KernelDistance.between(a, b)).isCloseTo(KernelDistance.between(b, a), within(1e-12));
  }

  /**
   * Unbiased: over 400 pairs of samples (m = 20, n = 30, d = 4) from one Gaussian, the mean KID is
   * within 5 standard errors of 0 (false-failure rate about 6e-7 under a normal approximation of
   * the mean). The biased (V-statistic) form that keeps the diagonal k(x, x) is about +0.5 here,
   * hundreds of standard errors away; a shift of 0.5 per coordinate gives a clearly positive mean.
   */
  @Test
  void unbiasedForOneDistributionAndPositiveForAShift() {
    SplittableRandom rng = new SplittableRandom(11);
    int reps = 400;
    double[] same = new double[reps];
    double[] shifted = new double[reps];
    for (int r = 0; r < reps; r++) {
      same[r] = KernelDistance.between(gaussian(rng, 20, 4, 0), gaussian(rng, 30, 4, 0));
      shifted[r] = KernelDistance.between(gaussian(rng, 20, 4, 0), gaussian(rng, 30, 4, 0.5));
    }
    double mean = mean(same);
    double se = Math.sqrt(variance(same) / reps);
    assertThat(Math.abs(mean)).isLessThan(5 * se);
    double meanShift = mean(shifted);
    double seShift = Math.sqrt(variance(shifted) / reps);
    assertThat(meanShift).isGreaterThan(mean + 10 * Math.max(se, seShift));
  }

  @Test
  void rejectsBadInputWithTheFieldNamed() {
    EmbeddingMatrix one = EmbeddingMatrix.of(new float[][] {{1, 0}});
    EmbeddingMatrix two = EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 1}});
    assertThatThrownBy(() -> KernelDistance.between(one, two))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a");
    assertThatThrownBy(() -> KernelDistance.between(new double[][] {{1, 0}, {0, 1}}, new double[][] {{1}, {2}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must have one dimension");
    assertThatThrownBy(() -> KernelDistance.between(new double[][] {{1}, {Double.NaN}}, new double[][] {{1}, {2}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a[1][0]");
  }

  private static double[][] gaussian(SplittableRandom rng, int n, int d, double shift) {
    double[][] x = new double[n][d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = normal(rng) + shift;
      }
    }
    return x;
  }

  private static double normal(SplittableRandom rng) {
    double u = rng.nextDouble();
    double v = rng.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
  }

  private static double mean(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s / x.length;
  }

  private static double variance(double[] x) {
    double m = mean(x);
    double s = 0;
    for (double v : x) {
      s += (v - m) * (v - m);
    }
    return s / (x.length - 1);
  }
}
