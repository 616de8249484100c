package dev.secpe.clustering;

import dev.secpe.clustering.spi.TileScan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.ServiceLoader;

/**
 * The arg-max scan of one segment of one row of a score tile: the two largest ranking values
 * in one pass ({@link #top2}), the first position of a value ({@link #indexOf}) and the positions
 * whose ranking value reaches a threshold ({@link #collect}). The ranking value of column {@code j} is the float score {@code c_j} (cosine) or
 * {@code 2 c_j - |b_j|^2} (L2, in float: {@code 2f * c - sqf}), larger is nearer.
 *
 * <p>{@link ScalarRowScan} (plain loops, always available) scans arrays; a {@link
 * dev.secpe.clustering.spi.TileScan} service ({@code secpe-kernel-openblas}'s Vector API scan,
 * which runs where the application adds the incubator module {@code jdk.incubator.vector}) adds
 * bit-identical in-place scans of native tiles ({@link BufferRowScan}). {@link #preferred()} picks
 * one once per JVM; this module never needs the incubator module.
 */
abstract class RowScan {

  /** System property that turns a provided (Vector API) scan off ({@code false}); default on. */
  static final String VECTOR_PROPERTY = "secpe.kernel.vector";

  /**
   * The two largest ranking values of {@code src[off .. off+w)}, {@code w >= 1}: {@code top[0]}
   * the largest, {@code top[1]} the largest of the others (equal to {@code top[0]} when the
   * maximum occurs twice; -infinity when w is 1). The values must not be NaN (the kernel sends
   * every row whose float scores could overflow to exact rescoring instead).
   *
   * @param sqf squared norms of B as float (L2 only; may be null for cosine)
   * @param j0 index in B of the segment's first column (offset into {@code sqf})
   * @return the position in the segment of the first maximum where the pass found it on the way,
   *     else -1 ({@link #indexOf} finds it)
   */
  abstract int top2(float[] src, int off, int w, boolean l2, float[] sqf, int j0, float[] top);

  /** The first position in the segment whose ranking value equals {@code v}, or -1. */
  abstract int indexOf(float[] src, int off, int w, boolean l2, float[] sqf, int j0, float v);

  /**
   * Appends to {@code outIdx/outVal} from {@code at}, in increasing column order, every column
   * whose ranking value is {@code >= thr} (its index {@code j0 + j} in B and its ranking value);
   * returns the new end. The arrays must have room for {@code w} more entries.
   */
  abstract int collect(float[] src, int off, int w, boolean l2, float[] sqf, int j0, double thr,
      int[] outIdx, float[] outVal, int at);

  /**
   * As {@link #top2(float[], int, int, boolean, float[], int, float[])} on a row read in place
   * from a direct buffer in native byte order, from byte {@code byteOff}; only where {@link
   * #readsBuffers()}.
   */
  int top2(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0,
      float[] top) {
    throw new UnsupportedOperationException(name() + " reads arrays only");
  }

  /** As {@link #indexOf(float[], int, int, boolean, float[], int, float)} in place. */
  int indexOf(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0,
      float v) {
    throw new UnsupportedOperationException(name() + " reads arrays only");
  }

  /**
   * The top two of rows {@code r0 <= r < r1} of a column-major tile in a direct buffer (native
   * byte order; column {@code j < w} of row {@code r} at float {@code j ld + r}), written to
   * {@code max[r]}, {@code second[r]} and {@code pos[r]} with the meaning of {@link #top2} (the
   * position always found). One pass front to back over the tile's columns.
   */
  abstract void columnsTop2(ByteBuffer src, int ld, int r0, int r1, int w, boolean l2,
      float[] sqf, int j0, float[] max, float[] second, int[] pos);

  /** Whether the scan reads tiles in place ({@code top2} and {@code indexOf} on buffers). */
  boolean readsBuffers() {
    return false;
  }

  /** A short name for reports ({@code "scalar"}, {@code "vector-512"}). */
  abstract String name();

  private static final class Holder {
    static final RowScan PREFERRED = choose();
  }

  /** A provided in-place scan where one runs and agrees with the scalar one, else the scalar scan. */
  static RowScan preferred() {
    return Holder.PREFERRED;
  }

  private static RowScan choose() {
    if ("false".equalsIgnoreCase(System.getProperty(VECTOR_PROPERTY, "true"))) {
      return ScalarRowScan.INSTANCE;
    }
    try {
      RowScan v = provided();
      return v != null && agreesWithScalar(v) ? v : ScalarRowScan.INSTANCE;
    } catch (LinkageError | RuntimeException e) {
      // The incubator API changes between JDKs (FloatVector.fromByteBuffer is gone on 25): a
      // method this JDK's module lacks fails here, once, and the scalar scan runs.
      return ScalarRowScan.INSTANCE;
    }
  }

  /**
   * The first {@link dev.secpe.clustering.spi.TileScan} a provider on the path creates, as a
   * scan (not yet checked against the scalar one), or null.
   */
  static RowScan provided() {
    for (TileScan.Provider p : ServiceLoader.load(
        TileScan.Provider.class,
        TileScan.Provider.class.getClassLoader())) {
      TileScan t = p.create();
      if (t != null) {
        return new BufferRowScan(t);
      }
    }
    return null;
  }

  /**
   * Runs {@code v}'s buffer scans once on a small native tile against the scalar scan, so that a
   * JDK whose incubator module lacks a method (a {@link LinkageError}) or differs is caught when
   * the scan is chosen, not inside a kernel call.
   */
  private static boolean agreesWithScalar(RowScan v) {
    int w = 37;
    ByteBuffer tile =
        ByteBuffer.allocateDirect(4 * w).order(ByteOrder.nativeOrder());
    float[] flat = new float[w];
    float[] sq = new float[w];
    for (int j = 0; j < w; j++) {
      flat[j] = (float) Math.sin(j * 0.7);
      sq[j] = (float) (j * 0.01);
      tile.putFloat(4 * j, flat[j]);
    }
    for (boolean l2 : new boolean[] {false, true}) {
      float[] a = new float[2];
      float[] b = new float[2];
      int pa = v.top2(tile, 0, w, l2, sq, 0, a);
      int pb = ScalarRowScan.INSTANCE.top2(flat, 0, w, l2, sq, 0, b);
      // top2 may leave the position to indexOf (-1): compare where the maximum is, not how found.
      pa = pa >= 0 ? pa : v.indexOf(tile, 0, w, l2, sq, 0, a[0]);
      pb = pb >= 0 ? pb : ScalarRowScan.INSTANCE.indexOf(flat, 0, w, l2, sq, 0, b[0]);
      if (pa != pb || a[0] != b[0] || a[1] != b[1]) {
        return false;
      }
      // the same values as row 0 of an 11-row column-major tile (the other rows rotations of
      // them): rows in every lane and a tail beyond a whole vector
      int rows = 11;
      ByteBuffer cols =
          ByteBuffer.allocateDirect(4 * w * rows).order(ByteOrder.nativeOrder());
      for (int j = 0; j < w; j++) {
        for (int r = 0; r < rows; r++) {
          cols.putFloat(4 * (j * rows + r), flat[(j + r) % w]);
        }
      }
      float[] mx = new float[rows];
      float[] sc = new float[rows];
      int[] ps = new int[rows];
      float[] mx2 = new float[rows];
      float[] sc2 = new float[rows];
      int[] ps2 = new int[rows];
      v.columnsTop2(cols, rows, 0, rows, w, l2, sq, 0, mx, sc, ps);
      ScalarRowScan.INSTANCE.columnsTop2(cols, rows, 0, rows, w, l2, sq, 0, mx2, sc2, ps2);
      if (!Arrays.equals(mx, mx2) || !Arrays.equals(sc, sc2)
          || !Arrays.equals(ps, ps2) || mx[0] != a[0] || ps[0] != pa) {
        return false;
      }
    }
    return true;
  }

}
