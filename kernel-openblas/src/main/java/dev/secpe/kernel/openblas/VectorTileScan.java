package dev.secpe.kernel.openblas;

import dev.secpe.clustering.spi.TileScan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * In-place reads of native tiles on the JDK Vector API (incubator module {@code
 * jdk.incubator.vector}): lane-wise maximum and runner-up over a tile row, reduced once, and a
 * lane-wise compare for the rarer position search. Only {@link VectorTileScans} instantiates it,
 * by name, after checking that the module is present; no other class refers to it.
 */
final class VectorTileScan implements TileScan {

  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();
  private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, S.vectorShape());

  VectorTileScan() {}

  /** Whether the preferred species is worth it on this machine (4+ float lanes). */
  static boolean usable() {
    return L >= 4;
  }

  @Override
  public int top2(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0, float[] top) {
    ByteOrder o = ByteOrder.nativeOrder();
    int up = S.loopBound(w);
    FloatVector m = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
    FloatVector s = m;
    for (int j = 0; j < up; j += L) {
      FloatVector v = FloatVector.fromByteBuffer(S, src, byteOff + 4 * j, o);
      if (l2) {
        v = v.mul(2f).sub(FloatVector.fromArray(S, sqf, j0 + j));
      }
      s = s.max(v.min(m));
      m = m.max(v);
    }
    reduce(m, s, top);
    int pos = -1;
    for (int j = up; j < w; j++) {
      float c = src.getFloat(byteOff + 4 * j);
      pos = tail(l2 ? 2f * c - sqf[j0 + j] : c, j, pos, top);
    }
    return pos;
  }

  @Override
  public int indexOf(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0, float x) {
    ByteOrder o = ByteOrder.nativeOrder();
    int up = S.loopBound(w);
    for (int j = 0; j < up; j += L) {
      FloatVector v = FloatVector.fromByteBuffer(S, src, byteOff + 4 * j, o);
      if (l2) {
        v = v.mul(2f).sub(FloatVector.fromArray(S, sqf, j0 + j));
      }
      int q = v.compare(VectorOperators.EQ, x).firstTrue();
      if (q < L) {
        return j + q;
      }
    }
    for (int j = up; j < w; j++) {
      float c = src.getFloat(byteOff + 4 * j);
      if ((l2 ? 2f * c - sqf[j0 + j] : c) == x) {
        return j;
      }
    }
    return -1;
  }

  @Override
  public void columnsTop2(ByteBuffer src, int ld, int r0, int r1, int w, boolean l2, float[] sqf,
      int j0, float[] max, float[] second, int[] pos) {
    int up = r0 + S.loopBound(r1 - r0);
    Arrays.fill(max, r0, up, Float.NEGATIVE_INFINITY);
    Arrays.fill(second, r0, up, Float.NEGATIVE_INFINITY);
    Arrays.fill(pos, r0, up, -1);
    ByteOrder o = ByteOrder.nativeOrder();
    for (int j = 0; j < w; j++) {
      // Row by row the decisions of the scalar top2 (v > second, then v > max), lane-wise: the
      // lanes are different rows, so there is no reduction and the tile is read front to back.
      float sq = l2 ? sqf[j0 + j] : 0f;
      IntVector jv = IntVector.broadcast(I, j);
      int base = 4 * j * ld;
      for (int r = r0; r < up; r += L) {
        FloatVector v = FloatVector.fromByteBuffer(S, src, base + 4 * r, o);
        if (l2) {
          v = v.mul(2f).sub(sq);
        }
        FloatVector m = FloatVector.fromArray(S, max, r);
        FloatVector sv = FloatVector.fromArray(S, second, r);
        VectorMask<Float> gt = v.compare(VectorOperators.GT, m);
        sv.blend(v, v.compare(VectorOperators.GT, sv)).blend(m, gt).intoArray(second, r);
        m.blend(v, gt).intoArray(max, r);
        IntVector.fromArray(I, pos, r).blend(jv, gt.cast(I)).intoArray(pos, r);
      }
    }
    if (up < r1) { // the rows past the last whole vector (fewer than L)
      TileScan.columnsTop2Scalar(src, ld, up, r1, w, l2, sqf, j0, max, second, pos);
    }
  }

  /**
   * The top two over all lanes: the maximum, and the larger of the lanes' runners-up and the
   * other lanes' maxima (the maximum itself when two lanes hold it).
   */
  private static void reduce(FloatVector m, FloatVector s, float[] top) {
    float mx = m.reduceLanes(VectorOperators.MAX);
    VectorMask<Float> at = m.compare(VectorOperators.EQ, mx);
    float second = s.reduceLanes(VectorOperators.MAX);
    if (at.trueCount() > 1) {
      second = mx;
    } else {
      second = Math.max(second,
          m.blend(Float.NEGATIVE_INFINITY, at).reduceLanes(VectorOperators.MAX));
    }
    top[0] = mx;
    top[1] = second;
  }

  /** Folds one tail value (position j) into top; returns the maximum's position if it is here. */
  private static int tail(float v, int j, int pos, float[] top) {
    if (v > top[0]) {
      top[1] = top[0];
      top[0] = v;
      return j;
    }
    if (v > top[1]) {
      top[1] = v;
    }
    return pos;
  }

  @Override
  public String name() {
    return "vector-" + S.vectorBitSize();
  }
}
