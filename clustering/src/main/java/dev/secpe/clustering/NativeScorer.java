package dev.secpe.clustering;

import dev.secpe.clustering.internal.KernelProbe;
import dev.secpe.clustering.spi.NativeGemm;

/**
 * A {@link BlockScorer} on a {@link NativeGemm} add-on (OpenBLAS): B's chunks live natively for
 * the call, each lane has its own native A block and tile, and the scan reads the tile in place.
 */
final class NativeScorer extends NativeTileScorer {

  private final NativeGemm.Tile tile;
  private final Tiling tiling;
  private final KernelProbe probe;
  private final long bytes;
  private final boolean columns;
  private int rows;

  private NativeScorer(NativeGemm.Tile tile, Tiling tiling, KernelProbe probe, boolean columns) {
    this.tile = tile;
    this.columns = columns;
    this.tiling = tiling;
    this.probe = probe;
    this.bytes = tile.bytes();
    track(probe, bytes);
  }

  /**
   * @param columns whether to compute column-major tiles ({@link NativeGemm#columnMajor()} must
   *     hold)
   */
  static Factory factory(NativeGemm gemm, float[] b, int d, Tiling tiling, KernelProbe probe,
      boolean columns) {
    int[] starts = new int[tiling.chunks()];
    int[] widths = new int[tiling.chunks()];
    for (int c = 0; c < starts.length; c++) {
      starts[c] = tiling.start(c);
      widths[c] = tiling.width(c);
    }
    NativeGemm.Chunks chunks = gemm.chunks(b, d, starts, widths);
    long bytes = chunks.bytes();
    track(probe, bytes);
    return new Factory() {
      @Override
      public BlockScorer newScorer(int maxRows) {
        return new NativeScorer(chunks.newTile(maxRows, tiling.chunkCols()), tiling, probe,
            columns);
      }

      @Override
      public void close() {
        chunks.close();
        track(probe, -bytes);
      }
    };
  }

  private static void track(KernelProbe probe, long bytes) {
    if (probe != null) {
      probe.nativeAllocated(bytes);
    }
  }

  @Override
  public void load(float[] a, int rows) {
    tile.load(a, rows);
    this.rows = rows;
  }

  @Override
  public void multiply(int chunk) {
    int w = tiling.width(chunk);
    if (columns) {
      tileIs(tile.multiplyColumns(chunk), w, rows, true);
    } else {
      tileIs(tile.multiply(chunk), w, rows, false);
    }
  }

  @Override
  public void close() {
    tile.close();
    track(probe, -bytes);
    noTile();
  }
}
