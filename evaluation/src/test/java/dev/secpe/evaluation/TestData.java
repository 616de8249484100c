package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;

/** Seeded test data. */
final class TestData {

  private TestData() {}

  /** n x d standard normal rows, each shifted by {@code shift} in every coordinate. */
  static EmbeddingMatrix gaussian(int n, int d, double shift, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[][] x = new float[n][d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = (float) (normal(r) + shift);
      }
    }
    return EmbeddingMatrix.of(x);
  }

  static double normal(SplittableRandom r) {
    // Box-Muller; r.nextDouble() is in [0, 1), so 1 - u is in (0, 1]
    double u = 1 - r.nextDouble();
    double v = r.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Rows of {@code m} translated by {@code t}. */
  static EmbeddingMatrix translate(EmbeddingMatrix m, float[] t) {
    float[][] x = m.toArray();
    for (float[] row : x) {
      for (int j = 0; j < row.length; j++) {
        row[j] += t[j];
      }
    }
    return EmbeddingMatrix.of(x);
  }
}
