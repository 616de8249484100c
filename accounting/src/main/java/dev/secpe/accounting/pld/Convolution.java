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
 * exponentially tilted sequences, uses the 2-norm bound as a bound on each value's error.
 */
final class Convolution {

  private static final double UNIT_ROUNDOFF = 0x1.0p-53;
  private static final long DIRECT_LIMIT = 1L << 20;

  private Convolution() {}

  /**
   * The result, a bound on the L1 norm of its rounding error and a bound on the error of any one
   * value (the 2-norm bound, which is at least the largest error).
   */
  record Result(double[] values, double errorL1, double errorMax) {}

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
      return new Result(out, err, err);
    }
    int size = Integer.highestOneBit(outLen);
    if (size < outLen) {
      size <<= 1;
    }
    if (size <= 0 || size > (1 << 26)) {
      throw new IllegalStateException(
          "privacy loss distribution too large to compose: " + outLen
              + " bins; use a coarser discretisation interval");
    }
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
    double err2 =
        16.0 * UNIT_ROUNDOFF * (Integer.numberOfTrailingZeros(size) + 1)
            * (norm2(x) * sum(y) + norm2(y) * sum(x));
    return new Result(out, err2 * Math.sqrt(size), err2);
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
      int bits = Integer.numberOfTrailingZeros(n);
      for (int i = 0; i < n; i++) {
        int j = Integer.reverse(i) >>> (32 - bits);
        if (bits == 0) {
          j = 0;
        }
        if (j > i) {
          double t = re[i];
          re[i] = re[j];
          re[j] = t;
          t = im[i];
          im[i] = im[j];
          im[j] = t;
        }
      }
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
