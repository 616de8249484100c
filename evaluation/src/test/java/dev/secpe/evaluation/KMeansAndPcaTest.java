package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KMeansAndPcaTest {

  @Test
  void separatedBlobsAreFoundExactly() {
    SplittableRandom r = new SplittableRandom(1);
    double[][] x = new double[90][3];
    for (int i = 0; i < 90; i++) {
      int blob = i / 30;
      for (int j = 0; j < 3; j++) {
        x[i][j] = 0.1 * TestData.normal(r) + (j == blob ? 10 : 0);
      }
    }
    int[] labels = KMeans.assign(x, 3, 3, 100, 42);
    for (int blob = 0; blob < 3; blob++) {
      for (int i = blob * 30; i < blob * 30 + 30; i++) {
        assertThat(labels[i]).isEqualTo(labels[blob * 30]);
      }
    }
    assertThat(labels[0]).isNotEqualTo(labels[30]).isNotEqualTo(labels[60]);
    assertThat(labels[30]).isNotEqualTo(labels[60]);
  }

  /** Rows spanning a 2-D plane of R^5 (plus 1e-6 noise): 2 components hold > 0.9 variance. */
  @Test
  void pcaKeepsTheComponentsThatHoldTheVariance() {
    SplittableRandom r = new SplittableRandom(2);
    double[][] x = new double[200][5];
    for (int i = 0; i < 200; i++) {
      double a = 3 * TestData.normal(r);
      double b = 2 * TestData.normal(r);
      double[] row = {a + b, a - b, 2 * a, b, 0};
      for (int j = 0; j < 5; j++) {
        x[i][j] = row[j] + 1e-6 * TestData.normal(r);
      }
    }
    double[][] z = Pca.project(x, 0.9);
    assertThat(z[0].length).isBetween(1, 2);
    assertThat(Pca.project(x, 0.999)[0].length).isEqualTo(2);
    // projection preserves the pairwise distances that live in the plane
    double d0 = 0;
    double dz = 0;
    double[][] z2 = Pca.project(x, 0.999);
    for (int j = 0; j < 5; j++) {
      d0 += (x[0][j] - x[1][j]) * (x[0][j] - x[1][j]);
    }
    for (int j = 0; j < 2; j++) {
      dz += (z2[0][j] - z2[1][j]) * (z2[0][j] - z2[1][j]);
    }
    assertThat(Math.sqrt(dz)).isCloseTo(Math.sqrt(d0), org.assertj.core.api.Assertions.within(1e-5));
  }
}
