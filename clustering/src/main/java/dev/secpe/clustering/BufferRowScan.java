package dev.secpe.clustering;

import dev.secpe.clustering.spi.TileScan;
import java.nio.ByteBuffer;

/**
 * The scalar scan on arrays plus a {@link TileScan} service's in-place scan of native tiles (the
 * Vector API scan of {@code secpe-kernel-openblas}). Arrays (the plain-Java backend's tiles and
 * the rare collect pass) stay with the scalar loops: there the GEMM or the copy dominates.
 */
final class BufferRowScan extends ScalarRowScan {

  private final TileScan tiles;

  BufferRowScan(TileScan tiles) {
    this.tiles = tiles;
  }

  @Override
  boolean readsBuffers() {
    return true;
  }

  @Override
  int top2(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0, float[] top) {
    return tiles.top2(src, byteOff, w, l2, sqf, j0, top);
  }

  @Override
  int indexOf(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0, float v) {
    return tiles.indexOf(src, byteOff, w, l2, sqf, j0, v);
  }

  @Override
  void columnsTop2(ByteBuffer src, int ld, int r0, int r1, int w, boolean l2, float[] sqf, int j0,
      float[] max, float[] second, int[] pos) {
    tiles.columnsTop2(src, ld, r0, r1, w, l2, sqf, j0, max, second, pos);
  }

  @Override
  String name() {
    return tiles.name();
  }
}
