package dev.secpe.clustering;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * A {@link BlockScorer} whose tile lives in native memory: rows are read from it straight into the
 * scanning thread's buffer (absolute bulk gets, safe from several threads) or scanned in place;
 * the tile is never copied to the heap as a whole. Subclasses compute the tile and call {@link
 * #tileIs}.
 */
abstract class NativeTileScorer implements BlockScorer {

  private int width;
  private int rows;
  private boolean columns;
  private ByteBuffer tileBytes;
  private FloatBuffer tileFloats;

  /**
   * The tile just computed: {@code bytes} in any order, rows of {@code width} floats, or
   * ({@code columns}) {@code width} columns of {@code rows} floats.
   */
  final void tileIs(ByteBuffer bytes, int width, int rows, boolean columns) {
    this.width = width;
    this.rows = rows;
    this.columns = columns;
    this.tileBytes = bytes.order(ByteOrder.nativeOrder());
    this.tileFloats = tileBytes.asFloatBuffer();
  }

  /** Forgets the tile (at close). */
  final void noTile() {
    tileBytes = null;
    tileFloats = null;
  }

  @Override
  public float[] row(int r, float[] buf) {
    if (columns) { // gathered: only the rare collect pass reads a row of a column-major tile
      for (int j = 0, o = r; j < width; j++, o += rows) {
        buf[j] = tileFloats.get(o);
      }
    } else {
      tileFloats.get(r * width, buf, 0, width);
    }
    return buf;
  }

  @Override
  public final boolean columnMajor() {
    return columns;
  }

  @Override
  public final int rowOffset(int r) {
    return 0;
  }

  @Override
  public final ByteBuffer tile() {
    return tileBytes;
  }
}
