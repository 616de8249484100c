package dev.secpe.accounting.pld;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
  static final long DIRECT_LIMIT = 1L << 20;

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
    if (x == y) {
      return square(x, fftSize(outLen));
    }
    return fft(x, y, fftSize(outLen));
  }

  /**
   * {@code x * x} as the power of 2 of one real transform ({@link #selfConvolve}), half the
   * transforms of {@link #fft}'s complex packing of two sequences; long enough not to wrap. Its
   * bound, {@code 2 rho |x|_2 |x|_1} with the half-length transform's doubled rho, is about twice
   * {@link #fft}'s for the same sequences.
   */
  private static Result square(double[] x, int size) {
    int outLen = 2 * x.length - 1;
    PowerResult p = selfConvolve(x, 2, size);
    double scale = Math.exp(p.logScale());
    double[] out = new double[outLen];
    for (int i = 0; i < outLen; i++) {
      out[i] = p.values()[i] * scale;
    }
    double err2 = p.errorMax() * scale * (1 + 1e-12);
    return new Result(out, err2 * Math.sqrt(size), err2, 0.0);
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
    Fft fft = Fft.of(size);
    fft.forward(re, im);
    // the spectrum is in bit-reversed order: position p holds frequency rev(p), whose partner
    // N - rev(p) sits at rev(N - rev(p)); the product is formed in that order and the inverse
    // transform takes it back to natural order
    int bits = Integer.numberOfTrailingZeros(size);
    double[] pr = new double[size];
    double[] pi = new double[size];
    for (int p = 0; p < size; p++) {
      int k = bits == 0 ? 0 : Integer.reverse(p) >>> (32 - bits);
      int nk = (size - k) & (size - 1);
      int q = bits == 0 ? 0 : Integer.reverse(nk) >>> (32 - bits);
      // X_k = (Z_k + conj Z_{N-k}) / 2, Y_k = (Z_k - conj Z_{N-k}) / (2i)
      double xr = 0.5 * (re[p] + re[q]);
      double xi = 0.5 * (im[p] - im[q]);
      double yr = 0.5 * (im[p] + im[q]);
      double yi = -0.5 * (re[p] - re[q]);
      pr[p] = xr * yr - xi * yi;
      pi[p] = xr * yi + xi * yr;
    }
    fft.inverse(pr, pi);
    double[] out = new double[outLen];
    for (int i = 0; i < outLen; i++) {
      out[i] = pr[i] / size;
    }
    double err2 = errorBound(UNIT_ROUNDOFF, size, x, y);
    return new Result(out, err2 * Math.sqrt(size), err2, 0.0);
  }

  /**
   * The T-fold self-convolution of a non-negative sequence, circular modulo {@code size} (a power
   * of two): one forward FFT, each frequency raised to the T-th power (binary powering), one inverse
   * FFT, instead of the 2 log2(T) convolutions of repeated squaring. The input is scaled to sum 1
   * first, so the values are the T-fold composition of {@code x / sum(x)} (a probability
   * distribution) folded modulo {@code size}; {@code logScale = T log(sum(x))} gives them back.
   *
   * <p>The bound on the 2-norm of the error (so on every value), from Higham's per-transform bound
   * ρ = 16 u (log2 N + 1) (as {@link #convolve}; the transforms here are the same radix-2
   * butterflies): with S = 1 the DFT's values are at most 1 in modulus and the computed ones at most
   * {@code M = 1 + δ}, {@code δ = ρ sqrt(N) |x|_2} (Parseval); {@code |a^T - b^T| <= T M^(T-1) |a -
   * b|}; binary powering makes at most {@code m = 2 floor(log2 T)} complex products, each within a
   * relative {@code 4u} (Higham, Lemma 3.5: sqrt(2) γ_2), so within {@code g = (1 + 4u)^m - 1}
   * relative of the exact power of the computed value; the inverse transform adds {@code ρ} of its
   * output's 2-norm, at most {@code (1 + g) M^T}. Divided by N (exact) that is {@code errorMax = T
   * M^(T-1) ρ |x|_2 + g M^T + ρ (1 + g) M^T}: about {@code T ρ |x|_2}, what repeated squaring's
   * bounds accumulate too (its first squaring's error is doubled by every squaring after it).
   */
  static PowerResult selfConvolve(double[] x, int times, int size) {
    if (Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("size must be a power of two, got size=" + size);
    }
    double total = sum(x);
    if (!(total > 0)) {
      return new PowerResult(new double[size], 0.0, Double.NEGATIVE_INFINITY);
    }
    double[] folded = new double[size];
    for (int j = 0; j < x.length; j++) {
      folded[j & (size - 1)] += x[j] / total;
    }
    double x2 = norm2(folded);
    // |X_k| <= the scaled input's sum, 1 but for its rounding
    double s1 = sum(folded) * (1 + 1e-12);
    double[] out;
    double rho;
    if (size >= 8) {
      out = realPower(folded, times, size);
      // the half-length transform's rho, doubled by the split into even and odd parts and its
      // inverse (each value of X is a combination of two values of Z with coefficients of modulus
      // at most 1, each Z in two of them: |dX|_2 <= sqrt 8 |dZ|_2 = 2 rho_M |X|_2), plus their
      // own rounding
      rho = 2 * 16.0 * UNIT_ROUNDOFF * Integer.numberOfTrailingZeros(size) + 8 * UNIT_ROUNDOFF;
    } else {
      out = complexPower(folded, times, size);
      rho = 16.0 * UNIT_ROUNDOFF * (Integer.numberOfTrailingZeros(size) + 1);
    }
    double delta = rho * Math.sqrt(size) * x2;
    int products = 2 * (31 - Integer.numberOfLeadingZeros(times)) + 1;
    double g = Math.expm1(products * Math.log1p(4 * UNIT_ROUNDOFF)) * (1 + 1e-6);
    // M^T (>= M^(T-1), M >= 1) with M = s1 + delta
    double mPower = Math.exp(times * Math.log(Math.max(1.0, s1 + delta))) * (1 + 1e-12);
    double err = (times * rho * x2 + g + rho * (1 + g)) * mPower;
    return new PowerResult(out, err, times * Math.log(total));
  }

  /** {@code (re + i im)^times} by binary powering, into {@code out[0], out[1]}. */
  private static void power(double re, double im, int times, double[] out) {
    double br = re;
    double bi = im;
    double rr = 1;
    double ri = 0;
    int t = times;
    while (true) {
      if ((t & 1) == 1) {
        double nr = rr * br - ri * bi;
        ri = rr * bi + ri * br;
        rr = nr;
      }
      t >>= 1;
      if (t == 0) {
        break;
      }
      double nr = br * br - bi * bi;
      bi = 2 * br * bi;
      br = nr;
    }
    out[0] = rr;
    out[1] = ri;
  }

  /** The circular T-fold self-convolution by one complex transform of length {@code size}. */
  private static double[] complexPower(double[] folded, int times, int size) {
    double[] re = folded.clone();
    double[] im = new double[size];
    Fft fft = Fft.of(size);
    fft.forward(re, im);
    double[] p = new double[2];
    for (int k = 0; k < size; k++) {
      power(re[k], im[k], times, p);
      re[k] = p[0];
      im[k] = p[1];
    }
    fft.inverse(re, im);
    for (int i = 0; i < size; i++) {
      re[i] /= size;
    }
    return re;
  }

  /**
   * The circular T-fold self-convolution of a real sequence of length N by transforms of length
   * N/2: the even and odd values as one complex sequence z, transformed; the real sequence's
   * spectrum {@code X_k = E_k + W^k O_k}, {@code X_{k+N/2} = E_k - W^k O_k} with {@code E_k = (Z_k +
   * conj Z_{N/2-k}) / 2}, {@code O_k = (Z_k - conj Z_{N/2-k}) / 2i}, {@code W = e^{-2 pi i / N}};
   * only {@code k <= N/2} raised to the power (the rest are their conjugates); the inverse the same
   * way round. Half the transform and half the powers of the complex route.
   */
  private static double[] realPower(double[] folded, int times, int size) {
    int m = size / 2;
    int bits = Integer.numberOfTrailingZeros(m);
    double[] zr = new double[m];
    double[] zi = new double[m];
    for (int j = 0; j < m; j++) {
      zr[j] = folded[2 * j];
      zi[j] = folded[2 * j + 1];
    }
    Fft half = Fft.of(m);
    Fft full = Fft.of(size);
    half.forward(zr, zi); // bit-reversed order
    double[] yr = new double[m + 1];
    double[] yi = new double[m + 1];
    double[] p = new double[2];
    for (int k = 0; k <= m; k++) {
      int kk = k & (m - 1);
      int a = Integer.reverse(kk) >>> (32 - bits);
      int b = Integer.reverse((m - kk) & (m - 1)) >>> (32 - bits);
      double ar = zr[a];
      double ai = zi[a];
      double br = zr[b];
      double bi = -zi[b];
      double er = 0.5 * (ar + br);
      double ei = 0.5 * (ai + bi);
      double or = 0.5 * (ai - bi); // (Z_k - conj Z_{m-k}) / 2i
      double oi = -0.5 * (ar - br);
      double wr = k == m ? -1.0 : full.cos(k);
      double wi = k == m ? 0.0 : -full.sin(k);
      power(er + (wr * or - wi * oi), ei + (wr * oi + wi * or), times, p);
      yr[k] = p[0];
      yi[k] = p[1];
    }
    for (int k = 0; k < m; k++) {
      double ar = yr[k];
      double ai = yi[k];
      double br = k == 0 ? yr[m] : yr[m - k]; // Y_{k+m} = conj Y_{m-k}
      double bi = k == 0 ? yi[m] : -yi[m - k];
      double er = 0.5 * (ar + br);
      double ei = 0.5 * (ai + bi);
      double dr = 0.5 * (ar - br);
      double di = 0.5 * (ai - bi);
      double wr = full.cos(k); // W^{-k}
      double wi = full.sin(k);
      double or = dr * wr - di * wi;
      double oi = dr * wi + di * wr;
      int at = Integer.reverse(k) >>> (32 - bits);
      zr[at] = er - oi; // E' + i O'
      zi[at] = ei + or;
    }
    half.inverse(zr, zi);
    double[] out = new double[size];
    for (int j = 0; j < m; j++) {
      out[2 * j] = zr[j] / m;
      out[2 * j + 1] = zi[j] / m;
    }
    return out;
  }

  /**
   * {@link #selfConvolve}'s result: the circular T-fold composition of the input scaled to sum 1,
   * a bound on every value's error, and {@code T log(sum of the input)}.
   */
  record PowerResult(double[] values, double errorMax, double logScale) {}

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

  /**
   * Radix-2 complex FFT without a bit-reversal pass: {@link #forward} by decimation in frequency
   * (natural order in, bit-reversed order out), {@link #inverse} by decimation in time (bit-reversed
   * in, natural out, unnormalised). A convolution multiplies the spectra pointwise, so it never needs
   * the natural order of the frequencies (the permutation took a third of the old transform's
   * time). The twiddles {@code e^{-2 pi i k / N}} are computed for the first octant only, where the
   * angle {@code 2 pi k / N} (k / N exact) is within a relative {@code u} of the truth and below
   * pi/4, and taken by symmetry (exact) elsewhere: each is within about {@code 2u} of its value,
   * so Higham's per-stage bound stays well inside {@code 16u}. Instances are cached per size and
   * immutable.
   */
  static final class Fft {
    private static final Map<Integer, Fft> CACHE =
        new ConcurrentHashMap<>();
    private final int n;
    private final double[] cos;
    private final double[] sin;

    /** The transform of length {@code n} (a power of two), shared. */
    static Fft of(int n) {
      if (n > (1 << 22)) {
        return new Fft(n); // not kept: 64 MB of twiddles
      }
      return CACHE.computeIfAbsent(n, Fft::new);
    }

    Fft(int n) {
      this.n = n;
      int half = Math.max(1, n / 2);
      cos = new double[half];
      sin = new double[half];
      int quarter = n / 4;
      int eighth = n / 8;
      for (int k = 0; k < half; k++) {
        if (n < 8) {
          double ang = 2 * Math.PI * k / n;
          cos[k] = k == 0 ? 1.0 : Math.abs(Math.cos(ang)) < 1e-15 ? 0.0 : Math.cos(ang);
          sin[k] = k == 0 ? 0.0 : Math.sin(ang);
          continue;
        }
        // k in [0, N/2): angle theta = 2 pi k / N in [0, pi); w = cos theta - i sin theta
        int r = k < quarter ? k : k - quarter; // theta = r-th step (+ pi/2 when k >= N/4)
        double c;
        double sn;
        if (r <= eighth) {
          double ang = 2 * Math.PI * ((double) r / n);
          c = Math.cos(ang);
          sn = Math.sin(ang);
        } else {
          double ang = 2 * Math.PI * ((double) (quarter - r) / n);
          c = Math.sin(ang);
          sn = Math.cos(ang);
        }
        if (k < quarter) {
          cos[k] = c;
          sin[k] = sn;
        } else { // theta + pi/2: cos -> -sin, sin -> cos
          cos[k] = -sn;
          sin[k] = c;
        }
      }
    }

    /** {@code cos(2 pi k / N)} for {@code k < N/2}. */
    double cos(int k) {
      return cos[k];
    }

    /** {@code sin(2 pi k / N)} for {@code k < N/2}. */
    double sin(int k) {
      return sin[k];
    }

    /** The forward transform in place ({@code e^{-2 pi i jk/N}}), output in bit-reversed order. */
    void forward(double[] re, double[] im) {
      for (int len = n; len >= 2; len >>= 1) {
        int half = len >> 1;
        int step = n / len;
        for (int i = 0; i < n; i += len) {
          for (int j = 0; j < half; j++) {
            int u = i + j;
            int v = u + half;
            double dr = re[u] - re[v];
            double di = im[u] - im[v];
            re[u] += re[v];
            im[u] += im[v];
            double wr = cos[j * step];
            double wi = -sin[j * step];
            re[v] = dr * wr - di * wi;
            im[v] = dr * wi + di * wr;
          }
        }
      }
    }

    /** The inverse transform in place ({@code e^{+2 pi i jk/N}}, unnormalised), input in bit-reversed order. */
    void inverse(double[] re, double[] im) {
      for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1;
        int step = n / len;
        for (int i = 0; i < n; i += len) {
          for (int j = 0; j < half; j++) {
            int u = i + j;
            int v = u + half;
            double wr = cos[j * step];
            double wi = sin[j * step];
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
