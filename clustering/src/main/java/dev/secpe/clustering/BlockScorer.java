package dev.secpe.clustering;

import java.nio.ByteBuffer;

/**
 * The inner-product engine of one kernel lane: loads a block of rows of A, then for each column
 * chunk of B computes the score tile {@code C[r][j] = sum_i a[r][i] * b[j0 + j][i]} (float, any
 * summation order) and lets the scan read its rows. One instance per lane; {@link #load} and
 * {@link #multiply} are called by the lane's thread, {@link #row} may be called concurrently
 * from several threads for different rows of the current tile.
 */
interface BlockScorer extends AutoCloseable {

  /** The block's rows, row-major with the kernel's dimension; {@code rows <= maxRows}. */
  void load(float[] a, int rows);

  /** Computes the tile of the loaded block against column chunk {@code chunk} of B. */
  void multiply(int chunk);

  /**
   * Row {@code r} of the current tile: the returned array holds its {@code width(chunk)} values
   * from {@link #rowOffset}; implementations may copy them into {@code buf} (which has room for
   * the widest chunk) and return it.
   */
  float[] row(int r, float[] buf);

  /** Where row {@code r} starts in the array {@link #row} returns. */
  int rowOffset(int r);

  /**
   * The current tile itself as a direct buffer in native byte order (row {@code r} from byte
   * {@code 4 r width}), for scans that read it in place; null where the tile is a Java array.
   */
  default ByteBuffer tile() {
    return null;
  }

  /**
   * Whether the current tile is column-major ({@link #tile()} holds column {@code j} of the
   * chunk for every row of the block at floats {@code [j rows, (j + 1) rows)}, {@code rows} the
   * loaded count); {@link #row} still returns rows.
   */
  default boolean columnMajor() {
    return false;
  }

  /**
   * Whether {@link #multiply} also found each row's top two where the tile is (a GPU): {@link
   * #top2} then gives them, {@link #tile()} is null and {@link #row} copies a row on request.
   */
  default boolean fusedTop2() {
    return false;
  }

  /**
   * Rows {@code [r0, r1)} of the top two that {@link #multiply} found, into the same positions of
   * the arrays (as {@link dev.secpe.clustering.spi.TileScan#columnsTop2Scalar} gives them).
   */
  default void top2(int r0, int r1, float[] max, float[] second, int[] pos) {
    throw new UnsupportedOperationException("this scorer does not scan its tiles");
  }

  @Override
  void close();

  /** Creates scorers for one B (split into the tiling's chunks); shared by the lanes of one call. */
  interface Factory extends AutoCloseable {
    BlockScorer newScorer(int maxRows);

    @Override
    void close();
  }
}
