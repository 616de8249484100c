package dev.secpe.clustering;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Objects;

/**
 * Rows of a matrix read block by block, so that a kernel can stream a matrix larger than memory
 * (1.9 M x 384 private embeddings) in bounded memory. {@link #of(EmbeddingMatrix)} reads an
 * in-memory matrix.
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

  /** The rows of {@code m}, read in place (no copy of the matrix). */
  static RowSource of(EmbeddingMatrix m) {
    Objects.requireNonNull(m, "m");
    return new RowSource() {
      @Override
      public long rows() {
        return m.rows();
      }

      @Override
      public int dim() {
        return m.dimension();
      }

      @Override
      public void read(long first, int count, float[] dst) {
        int d = m.dimension();
        for (int r = 0; r < count; r++) {
          m.copyRow((int) first + r, dst, r * d);
        }
      }
    };
  }
}
