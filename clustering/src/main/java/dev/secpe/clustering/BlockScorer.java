package dev.secpe.clustering;

/**
 * Computes {@code out[r * n + j] = sum_i a[r * d + i] * b[j * d + i]} (float, any summation
 * order) for one block of rows of A against all rows of a prepared B. One instance per worker
 * thread; not thread-safe.
 */
interface BlockScorer extends AutoCloseable {

  /** Scores of {@code rows} rows of {@code a} (row-major, dim d) against every row of B. */
  void scores(float[] a, int rows, float[] out);

  @Override
  void close();

  /** Creates scorers for one B; shared by the workers of one kernel call. */
  interface Factory extends AutoCloseable {
    BlockScorer newScorer(int maxRows);

    @Override
    void close();
  }
}
