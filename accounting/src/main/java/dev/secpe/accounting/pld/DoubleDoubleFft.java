package dev.secpe.accounting.pld;

/**
 * Radix-2 complex FFT in double-double ("double-word") arithmetic: every value is an unevaluated
 * sum {@code hi + lo} of two doubles with {@code |lo| <= ulp(hi) / 2}, about 106 bits. The tilted
 * composition uses it ({@link Convolution#convolveTilted}) because there the FFT's rounding error,
 * which is relative to the largest value of the whole sequence, decides the accuracy at the loss
 * the accountant is asked about: where a small sampling rate makes the composition a mixture (most
 * steps contribute a tiny loss, a rare sampled step a large one), no single tilt puts that loss at
 * the tilted peak, and in double arithmetic the error bound there can exceed the value itself.
 *
 * <p>The operations are the double-word algorithms of Joldes, Muller and Popescu ("Tight and
 * rigorous error bounds for basic building blocks of double-word arithmetic", ACM TOMS 44(2),
 * 2017), with their proven relative error bounds for u = 2^-53: sum (their Algorithm 6) {@code
 * 3u^2 / (1 - 4u)}, product (Algorithm 10, no FMA needed) {@code 7u^2}. The exact product of two
 * doubles is Dekker's (Veltkamp splitting), so no FMA is needed either; a product below the
 * normal range can lose relative accuracy, which adds at most a few {@code 2^-1074} a value,
 * nothing against the bounds used. {@link #UNIT}, the unit roundoff the error analysis is carried
 * out with, is 2^-100: at least 8 times either bound, which also covers the twiddle factors'
 * error (their Taylor series is summed in the same arithmetic to about 2^-104). Package-private.
 */
final class DoubleDoubleFft {

  /** The unit roundoff used in error bounds of results computed here. */
  static final double UNIT = 0x1.0p-100;

  /** 2 pi as a double-double. */
  private static final double TWO_PI_HI = 6.283185307179586;
  private static final double TWO_PI_LO = 2.4492935982947064e-16;
  private static final double SPLITTER = 0x1.0p27 + 1; // Veltkamp: 2^ceil(53/2) + 1

  private final int n;
  private final double[] cosHi;
  private final double[] cosLo;
  private final double[] sinHi;
  private final double[] sinLo;

  /** The low part of the last {@link #add}, {@link #mul}, {@link #div} or series. */
  private double lo;

  /**
   * @param n the transform length, a power of two, at least 8
   */
  DoubleDoubleFft(int n) {
    if (n < 8 || Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException("n must be a power of two >= 8, got n=" + n);
    }
    this.n = n;
    cosHi = new double[n / 2];
    cosLo = new double[n / 2];
    sinHi = new double[n / 2];
    sinLo = new double[n / 2];
    double[] cs = new double[4];
    int eighth = n / 8;
    // angles 2 pi k / n up to pi / 4 from their series; the rest by symmetry, exactly
    for (int k = 0; k <= eighth; k++) {
      sinCos(k, n, cs);
      cosHi[k] = cs[0];
      cosLo[k] = cs[1];
      sinHi[k] = cs[2];
      sinLo[k] = cs[3];
    }
    int quarter = n / 4;
    for (int k = eighth + 1; k <= quarter; k++) { // cos(pi/2 - t) = sin t
      cosHi[k] = sinHi[quarter - k];
      cosLo[k] = sinLo[quarter - k];
      sinHi[k] = cosHi[quarter - k];
      sinLo[k] = cosLo[quarter - k];
    }
    for (int k = quarter + 1; k < n / 2; k++) { // cos(pi - t) = -cos t, sin(pi - t) = sin t
      cosHi[k] = -cosHi[n / 2 - k];
      cosLo[k] = -cosLo[n / 2 - k];
      sinHi[k] = sinHi[n / 2 - k];
      sinLo[k] = sinLo[n / 2 - k];
    }
  }

  /** The low part of the result of the last {@link #add}, {@link #mul} or {@link #div}. */
  double lastLow() {
    return lo;
  }

  /**
   * In place; forward uses e^{-2 pi i jk/N}; the inverse is unnormalised. Each of the four arrays
   * holds one part (high or low) of the real or imaginary parts.
   */
  void transform(double[] reHi, double[] reLo, double[] imHi, double[] imLo, boolean inverse) {
    Convolution.bitReversePermute(n, reHi, reLo, imHi, imLo);
    double sign = inverse ? 1.0 : -1.0;
    for (int len = 2; len <= n; len <<= 1) {
      int half = len >> 1;
      int step = n / len;
      for (int i = 0; i < n; i += len) {
        for (int j = 0; j < half; j++) {
          double wrh = cosHi[j * step];
          double wrl = cosLo[j * step];
          double wih = sign * sinHi[j * step];
          double wil = sign * sinLo[j * step];
          int u = i + j;
          int v = u + half;
          // t = w * z_v
          double ah = mul(reHi[v], reLo[v], wrh, wrl);
          double al = lo;
          double bh = mul(imHi[v], imLo[v], wih, wil);
          double bl = lo;
          double trh = add(ah, al, -bh, -bl);
          double trl = lo;
          ah = mul(reHi[v], reLo[v], wih, wil);
          al = lo;
          bh = mul(imHi[v], imLo[v], wrh, wrl);
          bl = lo;
          double tih = add(ah, al, bh, bl);
          double til = lo;
          // z_v = z_u - t, z_u = z_u + t
          double urh = reHi[u];
          double url = reLo[u];
          double uih = imHi[u];
          double uil = imLo[u];
          reHi[v] = add(urh, url, -trh, -trl);
          reLo[v] = lo;
          imHi[v] = add(uih, uil, -tih, -til);
          imLo[v] = lo;
          reHi[u] = add(urh, url, trh, trl);
          reLo[u] = lo;
          imHi[u] = add(uih, uil, tih, til);
          imLo[u] = lo;
        }
      }
    }
  }

  /** (ah + al) + (bh + bl): the high part; the low part goes to {@link #lo} (Algorithm 6). */
  double add(double ah, double al, double bh, double bl) {
    double sh = ah + bh;
    double bb = sh - ah;
    double sl = (ah - (sh - bb)) + (bh - bb);
    double th = al + bl;
    double cc = th - al;
    double tl = (al - (th - cc)) + (bl - cc);
    double c = sl + th;
    double vh = sh + c;
    double vl = c - (vh - sh);
    double w = tl + vl;
    double zh = vh + w;
    lo = w - (zh - vh);
    return zh;
  }

  /** (ah + al) (bh + bl): the high part; the low part goes to {@link #lo} (Algorithm 10). */
  double mul(double ah, double al, double bh, double bl) {
    double ch = ah * bh;
    double cl1 = twoProdError(ah, bh, ch);
    double cl2 = ah * bl + al * bh;
    double cl3 = cl1 + cl2;
    double zh = ch + cl3;
    lo = cl3 - (zh - ch);
    return zh;
  }

  /** (ah + al) / d for a double d: the high part; the low part goes to {@link #lo}. */
  double div(double ah, double al, double d) {
    double qh = ah / d;
    double ph = qh * d;
    double pl = twoProdError(qh, d, ph);
    double r = ((ah - ph) - pl) + al;
    double ql = r / d;
    double zh = qh + ql;
    lo = ql - (zh - qh);
    return zh;
  }

  /** a b - p exactly, for p = fl(a b) (Dekker, with Veltkamp's splitting). */
  private static double twoProdError(double a, double b, double p) {
    double t = SPLITTER * a;
    double a1 = t - (t - a);
    double a2 = a - a1;
    t = SPLITTER * b;
    double b1 = t - (t - b);
    double b2 = b - b1;
    return ((a1 * b1 - p) + a1 * b2 + a2 * b1) + a2 * b2;
  }

  /**
   * cos and sin of 2 pi k / n (at most pi / 4) into {@code out}: cos hi, cos lo, sin hi, sin lo.
   * Taylor series summed in double-double until the terms fall below 2^-110.
   */
  void sinCos(long k, int n, double[] out) {
    double t = (double) k / n; // exact: n is a power of two
    double th = TWO_PI_HI * t;
    double tl = twoProdError(TWO_PI_HI, t, th) + TWO_PI_LO * t;
    double xh = th + tl; // renormalise
    double xl = tl - (xh - th);
    double x2h = mul(xh, xl, xh, xl);
    double x2l = lo;
    double ch = series(1.0, 0.0, x2h, x2l, 0); // cos: 1 - x^2/2! + ...
    double cl = lo;
    double sh = series(xh, xl, x2h, x2l, 1); // sin: x - x^3/3! + ...
    out[0] = ch;
    out[1] = cl;
    out[2] = sh;
    out[3] = lo;
  }

  /**
   * The alternating Taylor series {@code sum_i (-1)^i a_i} with {@code a_0} = first and {@code a_i =
   * a_{i-1} x^2 / ((2i - 1 + shift)(2i + shift))}: cos for first 1 and shift 0, sin for first x and
   * shift 1; summed until the terms fall below 2^-110. The high part; the low part goes to {@link
   * #lo}.
   */
  private double series(double firstH, double firstL, double x2h, double x2l, int shift) {
    double sumH = firstH;
    double sumL = firstL;
    double termH = firstH;
    double termL = firstL;
    for (int i = 1; i < 30 && Math.abs(termH) > 0x1.0p-110; i++) {
      termH = mul(termH, termL, x2h, x2l);
      termL = lo;
      termH = div(termH, termL, (2.0 * i - 1 + shift) * (2.0 * i + shift));
      termL = lo;
      boolean minus = (i & 1) == 1;
      sumH = add(sumH, sumL, minus ? -termH : termH, minus ? -termL : termL);
      sumL = lo;
    }
    lo = sumL;
    return sumH;
  }

  /** The twiddle cos(2 pi k / n) as {hi, lo}, for tests. */
  double[] cos(int k) {
    return new double[] {cosHi[k], cosLo[k]};
  }

  /** The twiddle sin(2 pi k / n) as {hi, lo}, for tests. */
  double[] sin(int k) {
    return new double[] {sinHi[k], sinLo[k]};
  }
}
