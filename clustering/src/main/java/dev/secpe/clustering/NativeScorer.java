package dev.secpe.clustering;

import dev.secpe.clustering.internal.KernelProbe;
import dev.secpe.clustering.spi.NativeGemm;

/**
 * A {@link BlockScorer} on a {@link NativeGemm} add-on (OpenBLAS, CUDA, ND4J): B's chunks live natively
 * for the call, each lane has its own native A block and tile, and the scan reads the tile in
 * place; or, fused ({@link NativeGemm#fusedTop2()}, a GPU), the add-on scans the tile where it is
 * and only each row's top two come back.
 */
final class NativeScorer extends NativeTileScorer {

  private final NativeGemm.Tile tile;
  private final Tiling tiling;
  private final KernelProbe probe;
  private final long bytes;
  private final boolean columns;
  /** Where not null, the add-on scans each tile where it is (the metric and B's norms). */
  private final Fused fused;
  private final float[] max;
  private final float[] second;
  private final int[] pos;
  private int rows;
  private int width;

  private NativeScorer(NativeGemm.Tile tile, Tiling tiling, KernelProbe probe, boolean columns,
      Fused fused, int maxRows) {
    this.tile = tile;
    this.columns = columns;
    this.fused = fused;
    this.max = fused == null ? null : new float[maxRows];
    this.second = fused == null ? null : new float[maxRows];
    this.pos = fused == null ? null : new int[maxRows];
    this.tiling = tiling;
    this.probe = probe;
    this.bytes = tile.bytes();
    track(probe, bytes);
  }

  /** A fused scan's ranking: the metric, and B's squared norms as floats (L2). */
  record Fused(boolean l2, float[] sqf) {}

  /**
   * @param columns whether to compute column-major tiles ({@link NativeGemm#columnMajor()} must
   *     hold)
   * @param fused where not null, the add-on scans each tile where it is ({@link
   *     NativeGemm#fusedTop2()} must hold; top-1 only)
   */
  static Factory factory(NativeGemm gemm, float[] b, int d, Tiling tiling, KernelProbe probe,
      boolean columns, Fused fused) {
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
            columns, fused, maxRows);
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
    if (fused != null) {
      tile.top2(chunk, fused.l2(), fused.sqf(), tiling.start(chunk), max, second, pos);
      width = w;
    } else if (columns) {
      tileIs(tile.multiplyColumns(chunk), w, rows, true);
    } else {
      tileIs(tile.multiply(chunk), w, rows, false);
    }
  }

  @Override
  public boolean fusedTop2() {
    return fused != null;
  }

  @Override
  public void top2(int r0, int r1, float[] max, float[] second, int[] pos) {
    System.arraycopy(this.max, r0, max, r0, r1 - r0);
    System.arraycopy(this.second, r0, second, r0, r1 - r0);
    System.arraycopy(this.pos, r0, pos, r0, r1 - r0);
  }

  @Override
  public float[] row(int r, float[] buf) {
    if (fused == null) {
      return super.row(r, buf);
    }
    tile.columnsRow(r, width, buf);
    return buf;
  }

  @Override
  public void close() {
    tile.close();
    track(probe, -bytes);
    noTile();
  }
}
