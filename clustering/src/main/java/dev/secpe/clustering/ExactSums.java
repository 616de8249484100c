package dev.secpe.clustering;

import java.io.Serializable;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * Exact sums of float values, one per index: every {@link #add} is kept without rounding, so the
 * sums do not depend on the order of the additions, and two accumulators that saw two halves of
 * the data {@link #merge} into the accumulator of the whole. A distributed run (one accumulator
 * per partition, merged in any tree) therefore releases the same values as a run on one machine:
 * a sum read with {@link #value} is the exact sum rounded once to the nearest double.
 *
 * <p>Each sum is a fixed-point number wide enough for every finite float: nine 32-bit limbs held
 * in signed 64-bit words (a Kulisch accumulator), in units of 2<sup>-149</sup>, the smallest
 * float. An addition touches two limbs; carries are propagated every 2<sup>30</sup> additions, so
 * no word can overflow. Up to 2<sup>31</sup> values per index (before a merge) are summed exactly.
 *
 * <p>Serializable, so that Spark can ship partial sums back to the driver; mutable and not
 * thread-safe: one accumulator per thread or partition, then merge.
 */
public final class ExactSums implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Limbs per sum: floats span 2^-149 to 2^128, with headroom for 2^31 additions. */
  static final int LIMBS = 9;

  /** The smallest float's exponent: limb 0's unit is 2^-149. */
  private static final int BIAS = 149;

  /** Additions between carry propagations: each word changes by less than 2^32 per addition. */
  private static final long NORMALISE_EVERY = 1L << 30;

  private final int length;
  private final long[] limbs;
  private long pending;

  /**
   * An accumulator of {@code length} sums, all zero.
   *
   * @throws IllegalArgumentException if length is negative or too large for one array
   */
  public ExactSums(int length) {
    if (length < 0 || (long) length * LIMBS > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "length must be in [0, " + (Integer.MAX_VALUE - 8) / LIMBS + "], got " + length);
    }
    this.length = length;
    this.limbs = new long[length * LIMBS];
  }

  /** The number of sums. */
  public int length() {
    return length;
  }

  /**
   * Adds {@code v} to sum {@code index}, exactly.
   *
   * @throws IllegalArgumentException if v is NaN or infinite
   * @throws IndexOutOfBoundsException if index is outside [0, length)
   */
  public void add(int index, float v) {
    Objects.checkIndex(index, length);
    addUnchecked(index * LIMBS, v);
  }

  /**
   * Adds {@code src[srcOffset + j]} to sum {@code first + j} for j in [0, count): a row of a
   * matrix into a row of sums.
   *
   * @throws IllegalArgumentException if a value is NaN or infinite (sums already added stay)
   */
  public void addRow(int first, float[] src, int srcOffset, int count) {
    Objects.checkFromIndexSize(first, count, length);
    Objects.checkFromIndexSize(srcOffset, count, src.length);
    for (int j = 0; j < count; j++) {
      addUnchecked((first + j) * LIMBS, src[srcOffset + j]);
    }
  }

  private void addUnchecked(int base, float v) {
    int bits = Float.floatToRawIntBits(v);
    int exp = (bits >>> 23) & 0xFF;
    if (exp == 0xFF) {
      throw new IllegalArgumentException("values must be finite, got " + v);
    }
    long mantissa = bits & 0x7FFFFF;
    if (exp != 0) {
      mantissa |= 0x800000;
    } else {
      exp = 1; // subnormal: same scale as the smallest normal, no implicit bit
    }
    if (mantissa == 0) {
      return;
    }
    int position = exp - 1; // exponent of the mantissa's last bit, plus BIAS: (exp - 150) + 149
    int limb = position >>> 5;
    long shifted = mantissa << (position & 31); // at most 2^55
    long low = shifted & 0xFFFFFFFFL;
    long high = shifted >>> 32;
    if (bits < 0) {
      limbs[base + limb] -= low;
      limbs[base + limb + 1] -= high;
    } else {
      limbs[base + limb] += low;
      limbs[base + limb + 1] += high;
    }
    if (++pending >= NORMALISE_EVERY) {
      normalise();
    }
  }

  /** Propagates carries so that every limb but the last lies in [0, 2^32). */
  private void normalise() {
    for (int base = 0; base < limbs.length; base += LIMBS) {
      for (int j = 0; j < LIMBS - 1; j++) {
        long carry = limbs[base + j] >> 32;
        limbs[base + j] -= carry << 32;
        limbs[base + j + 1] += carry;
      }
    }
    pending = 0;
  }

  /**
   * Adds every sum of {@code other} into this one (exactly): the accumulator of the union of what
   * the two saw.
   *
   * @throws IllegalArgumentException if the lengths differ
   */
  public void merge(ExactSums other) {
    if (other.length != length) {
      throw new IllegalArgumentException(
          "accumulators must have the same length to merge, got " + length + " and " + other.length);
    }
    normalise();
    other.normalise();
    for (int i = 0; i < limbs.length; i++) {
      limbs[i] += other.limbs[i];
    }
    // Each word is now below 2^33 in magnitude: propagate before further additions.
    normalise();
  }

  /** Sum {@code index}, exact, rounded once to the nearest double (ties to even). */
  public double value(int index) {
    Objects.checkIndex(index, length);
    BigInteger total = BigInteger.ZERO;
    int base = index * LIMBS;
    for (int j = LIMBS - 1; j >= 0; j--) {
      total = total.shiftLeft(32).add(BigInteger.valueOf(limbs[base + j]));
    }
    // |total| < 2^310, so doubleValue is finite and correctly rounded; scaling by 2^-149 is
    // exact because the result, if non-zero, is at least 2^-149, far inside double's normal range.
    return Math.scalb(total.doubleValue(), -BIAS);
  }

  /** All sums, each rounded once to the nearest double. */
  public double[] values() {
    double[] out = new double[length];
    for (int i = 0; i < length; i++) {
      out[i] = value(i);
    }
    return out;
  }

  /** Sets every sum to zero (the accumulator of nothing). */
  public void clear() {
    Arrays.fill(limbs, 0);
    pending = 0;
  }

  /**
   * Serialized compactly ({@link Compact}): per sum only the limbs between its lowest non-zero one
   * and its highest significant one, as 32-bit words. Sums of unit-vector coordinates use three or
   * four of the nine limbs, so a partition's aggregate crosses the network (and a Spark driver
   * reads it) at about a fifth of its size in memory.
   */
  private Object writeReplace() {
    return new Compact(this);
  }

  private void readObject(java.io.ObjectInputStream in) throws java.io.InvalidObjectException {
    throw new java.io.InvalidObjectException("ExactSums is serialized through its compact form");
  }

  /**
   * The serial form of {@link ExactSums}: after carries are propagated every limb but the last is
   * a 32-bit word, and the limbs above a sum's highest significant one are all zero (a
   * non-negative sum) or all ones (a negative one). Per sum: its lowest non-zero limb, its highest
   * significant limb and its sign, then those limbs.
   */
  private static final class Compact implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int length;
    /** Per sum: lowest limb | (highest limb + 1) << 8 | negative << 16. */
    private final int[] shape;
    /** The limbs below the last of every sum in order (32-bit words after normalising). */
    private final int[] words;
    /** The last limb of each sum that needs it, in order (any long). */
    private final long[] tops;

    Compact(ExactSums s) {
      s.normalise();
      length = s.length;
      shape = new int[length];
      int[] buf = new int[length * (LIMBS - 1)];
      long[] topBuf = new long[length];
      int n = 0;
      int t = 0;
      for (int i = 0; i < length; i++) {
        int base = i * LIMBS;
        boolean negative = s.limbs[base + LIMBS - 1] < 0;
        long fill = negative ? 0xFFFFFFFFL : 0;
        int hi = LIMBS - 1;
        // The last limb is -1 or 0 when it carries nothing but the sign.
        if (s.limbs[base + hi] == (negative ? -1 : 0)) {
          hi--;
          while (hi >= 0 && s.limbs[base + hi] == fill) {
            hi--;
          }
        }
        int lo = 0;
        while (lo <= hi && s.limbs[base + lo] == 0) {
          lo++;
        }
        shape[i] = lo | (hi + 1) << 8 | (negative ? 1 : 0) << 16;
        for (int j = lo; j <= hi; j++) {
          if (j == LIMBS - 1) {
            topBuf[t++] = s.limbs[base + j];
          } else {
            buf[n++] = (int) s.limbs[base + j];
          }
        }
      }
      words = Arrays.copyOf(buf, n);
      tops = Arrays.copyOf(topBuf, t);
    }

    private Object readResolve() throws java.io.ObjectStreamException {
      ExactSums s = new ExactSums(length);
      int n = 0;
      int t = 0;
      for (int i = 0; i < length; i++) {
        int lo = shape[i] & 0xFF;
        int hi = ((shape[i] >>> 8) & 0xFF) - 1;
        boolean negative = (shape[i] >>> 16) != 0;
        int base = i * LIMBS;
        for (int j = 0; j < LIMBS; j++) {
          if (j >= lo && j <= hi) {
            if (j == LIMBS - 1) {
              if (t >= tops.length) {
                throw new java.io.InvalidObjectException("a damaged ExactSums: sum " + i + " lacks its last limb");
              }
              s.limbs[base + j] = tops[t++];
            } else {
              if (n >= words.length) {
                throw new java.io.InvalidObjectException("a damaged ExactSums: sum " + i + " lacks limb " + j);
              }
              s.limbs[base + j] = words[n++] & 0xFFFFFFFFL;
            }
          } else if (j > hi) {
            s.limbs[base + j] = j == LIMBS - 1 ? (negative ? -1 : 0) : (negative ? 0xFFFFFFFFL : 0);
          }
        }
      }
      return s;
    }
  }

  /** Shows the number of sums only: the sums may be private aggregates. */
  @Override
  public String toString() {
    return "ExactSums[" + length + " sums]";
  }
}
