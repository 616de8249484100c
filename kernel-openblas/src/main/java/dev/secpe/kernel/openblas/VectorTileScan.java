package dev.secpe.kernel.openblas;

import dev.secpe.clustering.spi.TileScan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
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
