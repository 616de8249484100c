package dev.secpe.clustering.spi;

import java.nio.ByteBuffer;

/**
 * A native single-precision GEMM for the vote kernel's tiles: the service a backend add-on (such
 * as {@code secpe-kernel-openblas}) provides through {@link java.util.ServiceLoader}. Internal:
 * this package is exported only to the add-on modules, and its shape may change with the kernel.
 *
 * <p>The kernel copies B (the candidates) to native memory once per call, split into column
 * chunks, and then, per lane, loads a block of A's rows and computes one score tile {@code C =
 * A_block B_chunk^T} per chunk (or its transpose, where {@link #columnMajor()}), which it scans
 * in place. A provider only multiplies: it never sees
 * which rows are private, never keeps data past {@link Chunks#close()}, and must not change a
 * process-wide setting (its library's thread count is the application's choice).
 *
 * <p>Results need not be bit-identical to any other backend: the kernel re-checks every
 * near-tie exactly; the GEMM must be an IEEE float32 GEMM whose every inner product is within
 * the classic bound {@code gamma_{d+2} |a| |b|} of the exact one (any summation order, FMA
 * allowed; no reduced-precision modes such as TF32).
 */
public interface NativeGemm {

  /** A short name for reports and errors ({@code "openblas"}). */
  String name();

  /**
   * Loads the native library (idempotent).
   *
   * @return a short description of what loaded, e.g. {@code "OpenBLAS 0.3.31 (Haswell)"}
   * @throws RuntimeException or {@link LinkageError} when it cannot load on this machine
   */
  String load();

  /** The library's process-wide thread count for one GEMM (at least 1). */
  int threads();

  /**
   * Sets the library's process-wide thread count. Called only by {@link
   * dev.secpe.clustering.BlasThreads#setProcessWide}, i.e. on the application's explicit request;
   * never by a kernel.
   */
  void setThreads(int threads);

  /**
   * Whether the tiles implement {@link Tile#multiplyColumns}. With a scan that reads tiles in
   * place the kernel then uses it: that scan reads a column-major tile front to back and finds
   * each row's maximum and its position in the same pass, and OpenBLAS runs {@code B_chunk
   * A_block^T} faster than {@code A_block B_chunk^T} at the kernel's shapes.
   */
  default boolean columnMajor() {
    return false;
  }

  /**
   * Whether the tiles implement {@link Tile#top2}: the GEMM and the arg-max scan of a tile run
   * where the tile is (on a GPU), and only each row's two largest ranking values and the first
   * position of the largest come back to the Java heap. The kernel uses it for top-1 votes; it
   * reads a whole row ({@link Tile#columnsRow}) only for the rare rows whose runner-up is within
   * the float error of the maximum (the exact re-check then decides them).
   */
  default boolean fusedTop2() {
    return false;
  }

  /**
   * Copies B to native memory, one row-major {@code widths[c] x d} array per chunk, chunk
   * {@code c} holding rows {@code starts[c] .. starts[c] + widths[c]} of {@code b}.
   *
   * @param b B's rows, row-major, {@code d} floats each
   */
  Chunks chunks(float[] b, int d, int[] starts, int[] widths);

  /**
   * The check of {@link #setThreads}'s argument that every provider makes.
   *
   * @throws IllegalArgumentException if {@code threads < 1}
   */
  static void requireThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got threads=" + threads);
    }
  }

  /**
   * The check of {@link #chunks}'s shape that every provider makes: one start per width, {@code d
   * >= 1}.
   *
   * @throws IllegalArgumentException naming the lengths and d otherwise
   */
  static void requireChunkShape(int d, int[] starts, int[] widths) {
    if (starts.length != widths.length || d < 1) {
      throw new IllegalArgumentException("starts and widths must have one entry per chunk and d"
          + " must be >= 1, got starts=" + starts.length + " widths=" + widths.length + " d=" + d);
    }
  }

  /** B's chunks in native memory; shared by the lanes of one kernel call. Closed once. */
  interface Chunks extends AutoCloseable {
    /** Native bytes held. */
    long bytes();

    /**
     * A new tile engine for one lane: room for a block of {@code maxRows} rows of A and a tile of
     * {@code maxRows x maxWidth} floats.
     */
    Tile newTile(int maxRows, int maxWidth);

    @Override
    void close();
  }

  /**
   * One lane's A block and score tile in native memory. Used by one thread at a time; the
   * returned buffer may be read by several threads at once (absolute reads only).
   */
  interface Tile extends AutoCloseable {
    /** Native bytes held. */
    long bytes();

    /** Copies {@code rows} rows of dim d from {@code a} (row-major) into the native A block. */
    void load(float[] a, int rows);

    /**
     * Computes {@code C = A_block B_chunk^T} for the loaded rows and returns C: a direct buffer in
     * native byte order, row {@code r} at bytes {@code [4 r w, 4 (r + 1) w)} with {@code w} the
     * chunk's width; valid until the next call on this tile.
     */
    ByteBuffer multiply(int chunk);

    /**
     * The same tile column-major: {@code C^T = B_chunk A_block^T}, the scores of column {@code j}
     * of the chunk for every loaded row at bytes {@code [4 j rows, 4 (j + 1) rows)} ({@code rows}
     * the loaded row count); valid until the next call on this tile.
     *
     * @throws UnsupportedOperationException where {@link NativeGemm#columnMajor()} is false
     */
    default ByteBuffer multiplyColumns(int chunk) {
      throw new UnsupportedOperationException("column-major tiles are not implemented here");
    }

    /**
     * Computes the tile of the loaded rows against chunk {@code chunk} and, where it is, each
     * row's top two as {@link TileScan#columnsTop2Scalar} defines them on a column-major tile:
     * for row {@code r < rows} (the loaded count) {@code max[r]} the largest ranking value,
     * {@code second[r]} the largest of the others ({@code max[r]} when the maximum occurs twice,
     * -infinity for one column) and {@code pos[r]} the first position of the maximum in the
     * chunk (-1 where every value is -infinity). The ranking value of column {@code j} is the
     * float score {@code c_j} (cosine) or {@code 2f * c_j - sqf[j0 + j]} (L2), exactly as the
     * scalar scan rounds it. The tile itself stays where it was computed until {@link
     * #columnsRow} asks for a row of it or the next call replaces it.
     *
     * @param sqf B's squared norms as floats (all of B's rows; L2 only, else ignored)
     * @param j0 the chunk's first row of B
     * @throws UnsupportedOperationException where {@link NativeGemm#fusedTop2()} is false
     */
    default void top2(int chunk, boolean l2, float[] sqf, int j0, float[] max, float[] second,
        int[] pos) {
      throw new UnsupportedOperationException("fused top-2 scans are not implemented here");
    }

    /**
     * Row {@code r} of the tile {@link #top2} computed last, its {@code width} scores copied into
     * {@code buf}. May be called from several threads at once for different rows.
     */
    default void columnsRow(int r, int width, float[] buf) {
      throw new UnsupportedOperationException("fused top-2 scans are not implemented here");
    }

    @Override
    void close();
  }
}
