package dev.secpe.clustering;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link RowScan} on the JDK Vector API (incubator module {@code jdk.incubator.vector}): a lane-wise
 * maximum over the segment, reduced once, and a lane-wise compare for the rare collect pass. Only
 * {@link RowScan#preferred()} instantiates it, by name, after checking that the module is present;
 * no other class refers to it.
 */
final class VectorRowScan extends RowScan {

  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();

  VectorRowScan() {}

  @Override
  boolean usable() {
    return L >= 4;
  }

  @Override
  float max(float[] src, int off, int w, boolean l2, float[] sqf, int j0) {
    int up = S.loopBound(w);
    // Two accumulators: the max's latency, not the loads, would bound a single chain.
    FloatVector m0 = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
    FloatVector m1 = m0;
    int j = 0;
    if (!l2) {
      for (; j + 2 * L <= up; j += 2 * L) {
        m0 = m0.max(FloatVector.fromArray(S, src, off + j));
        m1 = m1.max(FloatVector.fromArray(S, src, off + j + L));
      }
      for (; j < up; j += L) {
        m0 = m0.max(FloatVector.fromArray(S, src, off + j));
      }
    } else {
      for (; j < up; j += L) {
        FloatVector v = FloatVector.fromArray(S, src, off + j).mul(2f)
            .sub(FloatVector.fromArray(S, sqf, j0 + j));
        m0 = m0.max(v);
      }
    }
    float m = m0.max(m1).reduceLanes(VectorOperators.MAX);
    for (; j < w; j++) {
      float v = l2 ? 2f * src[off + j] - sqf[j0 + j] : src[off + j];
      if (v > m) {
        m = v;
      }
    }
    return m;
  }

  @Override
  boolean readsBuffers() {
    return true;
  }

  @Override
  float max(ByteBuffer src, int byteOff, int w, boolean l2, float[] sqf, int j0) {
    ByteOrder o = ByteOrder.nativeOrder();
    int up = S.loopBound(w);
    FloatVector m0 = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
    FloatVector m1 = m0;
    int j = 0;
    if (!l2) {
      for (; j + 2 * L <= up; j += 2 * L) {
        m0 = m0.max(FloatVector.fromByteBuffer(S, src, byteOff + 4 * j, o));
        m1 = m1.max(FloatVector.fromByteBuffer(S, src, byteOff + 4 * (j + L), o));
      }
      for (; j < up; j += L) {
        m0 = m0.max(FloatVector.fromByteBuffer(S, src, byteOff + 4 * j, o));
      }
    } else {
      for (; j < up; j += L) {
        FloatVector v = FloatVector.fromByteBuffer(S, src, byteOff + 4 * j, o).mul(2f)
            .sub(FloatVector.fromArray(S, sqf, j0 + j));
        m0 = m0.max(v);
      }
    }
    float m = m0.max(m1).reduceLanes(VectorOperators.MAX);
    for (; j < w; j++) {
      float c = src.getFloat(byteOff + 4 * j);
      float v = l2 ? 2f * c - sqf[j0 + j] : c;
      if (v > m) {
        m = v;
      }
    }
    return m;
  }

  @Override
  int collect(float[] src, int off, int w, boolean l2, float[] sqf, int j0, double thr,
      int[] outIdx, float[] outVal, int at) {
    // v >= thr (double) <=> v >= t, t the least float >= thr: exact, so the compare can be float.
    float t = RowScan.ceilToFloat(thr);
    int up = S.loopBound(w);
    int j = 0;
    for (; j < up; j += L) {
      FloatVector v = FloatVector.fromArray(S, src, off + j);
      if (l2) {
        v = v.mul(2f).sub(FloatVector.fromArray(S, sqf, j0 + j));
      }
      VectorMask<Float> hit = v.compare(VectorOperators.GE, t);
      if (hit.anyTrue()) {
        for (int q = 0; q < L; q++) {
          if (hit.laneIsSet(q)) {
            outIdx[at] = j0 + j + q;
            outVal[at++] = v.lane(q);
          }
        }
      }
    }
    for (; j < w; j++) {
      float v = l2 ? 2f * src[off + j] - sqf[j0 + j] : src[off + j];
      if (v >= thr) {
        outIdx[at] = j0 + j;
        outVal[at++] = v;
      }
    }
    return at;
  }

  @Override
  String name() {
    return "vector-" + S.vectorBitSize();
  }
}
