package dev.secpe.clustering;

/**
 * Rows of a matrix read block by block, so that a kernel can stream a matrix larger than memory
 * (1.9 M x 384 private embeddings) in bounded memory. {@link Embeddings} is the in-memory
 * implementation.
 *
 * <p>Implementations must allow concurrent {@link #read} calls on disjoint ranges and must
 * return the same values each time a row is read.
 */
public interface RowSource {

  /** Number of rows. */
  long rows();

  /** Number of columns. */
  int dim();

  /**
   * Copies rows {@code [first, first + count)} row-major into {@code dst[0 .. count*dim)}.
   * Values must be finite; the kernels check and reject NaN and infinities.
   */
  void read(long first, int count, float[] dst);
}
