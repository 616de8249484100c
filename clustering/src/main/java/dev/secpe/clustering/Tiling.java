package dev.secpe.clustering;

/**
 * How one kernel call cuts the score matrix: blocks of {@code blockRows} rows of A, and B in
 * {@code chunks} column chunks of {@code chunkCols} rows of B (the last one possibly narrower).
 * A lane computes one tile ({@code blockRows x chunkCols} floats) at a time and scans it while it
 * is still in cache, so the full score matrix is never materialised.
 */
record Tiling(int n, int blockRows, int chunkCols, int chunks) {

  /** Index in B of chunk {@code c}'s first column. */
  int start(int c) {
    return c * chunkCols;
  }

  /** Number of columns of chunk {@code c}. */
  int width(int c) {
    return Math.min(chunkCols, n - c * chunkCols);
  }

  /**
   * Chunks of at most {@code maxCols} columns: exactly {@code maxCols} wide when {@code exact}
   * (tests), else balanced and rounded up to a multiple of 16 (so that no chunk is a sliver).
   */
  static Tiling of(int n, int blockRows, int maxCols, boolean exact) {
    int cols;
    if (n <= maxCols || !exact && n <= maxCols + maxCols / 4) {
      cols = n; // automatic: no chunk narrower than a quarter of the widest
    } else if (exact) {
      cols = maxCols;
    } else {
      int chunks = (n + maxCols - 1) / maxCols;
      cols = Math.min(maxCols, ((n + chunks - 1) / chunks + 15) / 16 * 16);
    }
    return new Tiling(n, blockRows, cols, (n + cols - 1) / cols);
  }
}
