package dev.secpe.accounting.pld;

/**
 * Linear convolution of non-negative sequences: direct for small inputs, otherwise a radix-2
 * complex FFT. Package-private.
 *
 * <p>The FFT path returns, with the result, an upper bound on the L1 norm of its rounding error,
 * from the standard bound for FFT-based convolution (Higham, "Accuracy and Stability of
 * Numerical Algorithms", 2nd ed., §24.1: relative 2-norm error O(u log2 N)), times sqrt(N) to
 * pass from the 2-norm to the 1-norm and a safety factor of 16. The caller adds that bound to
 * the infinity mass, so rounding can only make the accountant more pessimistic; or, convolving
 * exponentially tilted sequences ({@link #convolveTilted}), uses the 2-norm bound as a bound on
 * each value's error, from an FFT in double-double arithmetic where the transform is at most
 * {@link #DOUBLE_DOUBLE_MAX_SIZE} long.
 */
final class Convolution {

  private static final double UNIT_ROUNDOFF = 0x1.0p-53;
  private static final long DIRECT_LIMIT = 1L << 20;

  /**
   * The longest transform {@link #convolveTilted} computes in double-double arithmetic (5 to 8
   * times the time of the double FFT, measured at 2^18 and 2^20); longer ones are in double.
   */
  static final int DOUBLE_DOUBLE_MAX_SIZE = 1 << 20;

  private Convolution() {}

  /**
   * The result, a bound on the L1 norm of its rounding error, and the bound on the error of each
   * value {@code values[k]}: at most {@code errorMax + errorRelative * |values[k]|}.
   */
  record Result(double[] values, double errorL1, double errorMax, double errorRelative) {}

  static Result convolve(double[] x, double[] y) {
    int outLen = x.length + y.length - 1;
    if ((long) x.length * y.length <= DIRECT_LIMIT) {
      double[] out = new double[outLen];
      for (int i = 0; i < x.length; i++) {
        double xi = x[i];
        if (xi == 0) {
          continue;
        }
        for (int j = 0; j < y.length; j++) {
          out[i + j] += xi * y[j];
        }
      }
      double sx = sum(x);
      double sy = sum(y);
      // Each output is a sum of at most min(len) non-negative products.
      double err = 2.0 * Math.min(x.length, y.length) * UNIT_ROUNDOFF * sx * sy;
      return new Result(out, err, err, 0.0);
    }
    return fft(x, y, fftSize(outLen));
  }

  /**
   * The convolution of two non-negative sequences, with each value's error bound as tight as this
   * class can make it (the tilted composition bounds every value by it): direct for small inputs,
   * where each value of m non-negative products is within a relative {@code 2 m u} of the truth
   * (Higham, Lemma 3.1 and §4.2: no cancellation), plus the products' underflow; otherwise an FFT
   * in double-double arithmetic ({@link DoubleDoubleFft}) up to {@link #DOUBLE_DOUBLE_MAX_SIZE},
   * with the bound of {@link #convolve} at that arithmetic's unit roundoff, plus the rounding of
   * each value to double (relative 2^-52); longer ones as {@link #convolve}.
   */
  static Result convolveTilted(double[] x, double[] y) {
    int outLen = x.length + y.length - 1;
    if ((long) x.length * y.length <= DIRECT_LIMIT) {
      Result r = convolve(x, y);
      int m = Math.min(x.length, y.length);
      return new Result(r.values(), r.errorL1(), m * Double.MIN_VALUE, 2.0 * m * UNIT_ROUNDOFF);
    }
    int size = fftSize(outLen);
    if (size > DOUBLE_DOUBLE_MAX_SIZE) {
      return fft(x, y, size);
    }
    DoubleDoubleFft fft = new DoubleDoubleFft(size);
    double[] reH = new double[size];
    double[] reL = new double[size];
    double[] imH = new double[size];
    double[] imL = new double[size];
    System.arraycopy(x, 0, reH, 0, x.length);
    System.arraycopy(y, 0, imH, 0, y.length);
    fft.transform(reH, reL, imH, imL, false);
    double[] prH = new double[size];
    double[] prL = new double[size];
    double[] piH = new double[size];
    double[] piL = new double[size];
    for (int k = 0; k < size; k++) {
      int nk = (size - k) & (size - 1);
      // X_k = (Z_k + conj Z_{N-k}) / 2, Y_k = (Z_k - conj Z_{N-k}) / (2i); halving is exact
      double xrh = 0.5 * fft.add(reH[k], reL[k], reH[nk], reL[nk]);
      double xrl = 0.5 * fft.lastLow();
      double xih = 0.5 * fft.add(imH[k], imL[k], -imH[nk], -imL[nk]);
      double xil = 0.5 * fft.lastLow();
      double yrh = 0.5 * fft.add(imH[k], imL[k], imH[nk], imL[nk]);
      double yrl = 0.5 * fft.lastLow();
      double yih = -0.5 * fft.add(reH[k], reL[k], -reH[nk], -reL[nk]);
      double yil = -0.5 * fft.lastLow();
      double ah = fft.mul(xrh, xrl, yrh, yrl);
      double al = fft.lastLow();
      double bh = fft.mul(xih, xil, yih, yil);
      double bl = fft.lastLow();
      prH[k] = fft.add(ah, al, -bh, -bl);
      prL[k] = fft.lastLow();
      ah = fft.mul(xrh, xrl, yih, yil);
      al = fft.lastLow();
      bh = fft.mul(xih, xil, yrh, yrl);
      bl = fft.lastLow();
      piH[k] = fft.add(ah, al, bh, bl);
      piL[k] = fft.lastLow();
    }
    fft.transform(prH, prL, piH, piL, true);
    double[] out = new double[outLen];
    for (int i = 0; i < outLen; i++) {
      out[i] = (prH[i] + prL[i]) / size; // a power of two: exact but for the rounding to double
    }
    double err2 = errorBound(DoubleDoubleFft.UNIT, size, x, y);
    return new Result(out, err2 * Math.sqrt(size), err2, 2 * UNIT_ROUNDOFF);
  }

  /** The power-of-two transform length for {@code outLen} values. */
  private static int fftSize(int outLen) {
    int size = Integer.highestOneBit(outLen);
    if (size < outLen) {
      size <<= 1;
    }
    if (size <= 0 || size > (1 << 26)) {
      throw new IllegalStateException(
          "privacy loss distribution too large to compose: " + outLen
              + " bins; use a coarser discretisation interval");
    }
    return size;
  }

  /**
   * Higham's bound (see the class comment) on the 2-norm of the error of an FFT convolution of
   * length {@code size} carried out at unit roundoff {@code unit}, with a safety factor of 16.
   */
  private static double errorBound(double unit, int size, double[] x, double[] y) {
    return 16.0 * unit * (Integer.numberOfTrailingZeros(size) + 1)
        * (norm2(x) * sum(y) + norm2(y) * sum(x));
  }

  private static Result fft(double[] x, double[] y, int size) {
    int outLen = x.length + y.length - 1;
    double[] re = new double[size];
    double[] im = new double[size];
    // Pack x into the real part and y into the imaginary part; one forward FFT.
    System.arraycopy(x, 0, re, 0, x.length);
    System.arraycopy(y, 0, im, 0, y.length);
    Fft fft = new Fft(size);
    fft.transform(re, im, false);
    double[] pr = new double[size];
    double[] pi = new double[size];
    for (int k = 0; k < size; k++) {
      int nk = (size - k) & (size - 1);
      // X_k = (Z_k + conj Z_{N-k}) / 2, Y_k = (Z_k - conj Z_{N-k}) / (2i)
      double xr = 0.5 * (re[k] + re[nk]);
      double xi = 0.5 * (im[k] - im[nk]);
      double yr = 0.5 * (im[k] + im[nk]);
      double yi = -0.5 * (re[k] - re[nk]);
      pr[k] = xr * yr - xi * yi;
      pi[k] = xr * yi + xi * yr;
    }
    fft.transform(pr, pi, true);
    double[] out = new double[outLen];
    for (int i = 0; i < outLen; i++) {
      out[i] = pr[i] / size;
    }
    double err2 = errorBound(UNIT_ROUNDOFF, size, x, y);
    return new Result(out, err2 * Math.sqrt(size), err2, 0.0);
  }

  /** Puts every array's entries in bit-reversed order of their index (n a power of two, >= 2). */
  static void bitReversePermute(int n, double[]... arrays) {
    int bits = Integer.numberOfTrailingZeros(n);
    for (int i = 0; i < n; i++) {
      int j = Integer.reverse(i) >>> (32 - bits);
      if (j > i) {
        for (double[] a : arrays) {
          double t = a[i];
          a[i] = a[j];
          a[j] = t;
        }
      }
    }
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double d : v) s += d;
    return s;
  }

  private static double norm2(double[] v) {
    double s = 0;
    for (double d : v) s += d * d;
    return Math.sqrt(s);
  }

  /** Iterative radix-2 Cooley–Tukey FFT with directly computed twiddles. */
  static final class Fft {
    private final int n;
    private final double[] cos;
    private final double[] sin;

    Fft(int n) {
      this.n = n;
      cos = new double[n / 2];
      sin = new double[n / 2];
      for (int k = 0; k < n / 2; k++) {
        double ang = 2 * Math.PI * k / n;
        cos[k] = Math.cos(ang);
        sin[k] = Math.sin(ang);
      }
    }

    /** In place; forward uses e^{-2 pi i jk/N}; inverse is unnormalised. */
    void transform(double[] re, double[] im, boolean inverse) {
      bitReversePermute(n, re, im);
      double sign = inverse ? 1.0 : -1.0;
      for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1;
        int step = n / len;
        for (int i = 0; i < n; i += len) {
          for (int j = 0; j < half; j++) {
            double wr = cos[j * step];
            double wi = sign * sin[j * step];
            int u = i + j;
            int v = u + half;
            double tr = re[v] * wr - im[v] * wi;
            double ti = re[v] * wi + im[v] * wr;
            re[v] = re[u] - tr;
            im[v] = im[u] - ti;
            re[u] += tr;
            im[u] += ti;
          }
        }
      }
    }
  }
}
