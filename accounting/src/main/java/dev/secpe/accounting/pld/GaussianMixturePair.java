package dev.secpe.accounting.pld;

import dev.secpe.accounting.StandardNormal;

/**
 * A pair P = sum_k a_k N(m_k, s^2), Q = sum_k b_k N(n_k, s^2) whose privacy loss
 * L(x) = log(p(x)/q(x)) is non-decreasing in x; the optimal tests are half-lines, so
 * delta(eps) = P(X > x_eps) - e^eps Q(X > x_eps) + tau with L(x_eps) = eps, where tau is
 * P-mass placed outside the support of Q (a pessimistic home for truncated mixture tails).
 *
 * <p>Non-decreasing loss holds when P is a mixture of non-negative shifts and Q = N(0, s^2)
 * (the loss is a log-sum-exp of affine functions with non-negative slopes), and when P =
 * N(0, s^2) and Q is a mixture of non-positive shifts. Only those two shapes are built.
 * Package-private; instances carry a warm-start hint and are not thread-safe.
 */
final class GaussianMixturePair implements PrivacyProfile {

  private static final double TAIL_Z = 10.0; // Phibar(10) ~ 7.6e-24

  private final double[] logA;
  private final double[] m;
  private final double[] a;
  private final double[] logB;
  private final double[] n;
  private final double[] b;
  private final double s;
  private final double tau;
  private double hint = Double.NaN;

  private GaussianMixturePair(
      double[] a, double[] m, double[] b, double[] n, double s, double tau) {
    this.a = a;
    this.m = m;
    this.b = b;
    this.n = n;
    this.s = s;
    this.tau = tau;
    this.logA = logs(a);
    this.logB = logs(b);
  }

  /** P = sum_k w_k N(shift_k, s^2) (shifts >= 0), Q = N(0, s^2); tau = P-mass at infinite loss. */
  static GaussianMixturePair shiftedMixtureVsCentred(
      double[] weights, double[] shifts, double s, double tau) {
    for (double v : shifts) {
      if (!(v >= 0)) {
        throw new IllegalArgumentException("shifts must be >= 0, got shift=" + v);
      }
    }
    return new GaussianMixturePair(weights, shifts, new double[] {1.0}, new double[] {0.0}, s, tau);
  }

  /**
   * P = N(0, s^2), Q = sum_k w_k N(-shift_k, s^2) (the reflection of "Q = mixture of
   * non-negative shifts", which has the same privacy profile and a non-decreasing loss).
   */
  static GaussianMixturePair centredVsReflectedMixture(
      double[] weights, double[] shifts, double s) {
    double[] neg = new double[shifts.length];
    for (int k = 0; k < shifts.length; k++) {
      if (!(shifts[k] >= 0)) {
        throw new IllegalArgumentException("shifts must be >= 0, got shift=" + shifts[k]);
      }
      neg[k] = -shifts[k];
    }
    return new GaussianMixturePair(new double[] {1.0}, new double[] {0.0}, weights, neg, s, 0.0);
  }

  private static double[] logs(double[] w) {
    double[] out = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      out[i] = Math.log(w[i]);
    }
    return out;
  }

  private double logDensityRatio(double[] logW, double[] mu, double x) {
    // log sum_k w_k exp((mu_k x - mu_k^2 / 2) / s^2): density relative to N(0, s^2).
    double s2 = s * s;
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < mu.length; k++) {
      double t = logW[k] + (mu[k] * x - 0.5 * mu[k] * mu[k]) / s2;
      if (t > max) {
        max = t;
      }
    }
    if (max == Double.NEGATIVE_INFINITY) {
      return max;
    }
    double sum = 0;
    for (int k = 0; k < mu.length; k++) {
      sum += Math.exp(logW[k] + (mu[k] * x - 0.5 * mu[k] * mu[k]) / s2 - max);
    }
    return max + Math.log(sum);
  }

  /** The privacy loss L(x) (ignoring tau, which sits outside Q's support). */
  double loss(double x) {
    return logDensityRatio(logA, m, x) - logDensityRatio(logB, n, x);
  }

  private double meanShift(double[] logW, double[] mu, double x) {
    double s2 = s * s;
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < mu.length; k++) {
      max = Math.max(max, logW[k] + (mu[k] * x - 0.5 * mu[k] * mu[k]) / s2);
    }
    double z = 0;
    double num = 0;
    for (int k = 0; k < mu.length; k++) {
      double e = Math.exp(logW[k] + (mu[k] * x - 0.5 * mu[k] * mu[k]) / s2 - max);
      z += e;
      num += e * mu[k];
    }
    return num / z;
  }

  private double lossDerivative(double x) {
    return (meanShift(logA, m, x) - meanShift(logB, n, x)) / (s * s);
  }

  /** P(x1 < X <= x2). */
  double pInterval(double x1, double x2) {
    double sum = 0;
    for (int k = 0; k < m.length; k++) {
      sum += a[k] * StandardNormal.interval((x1 - m[k]) / s, (x2 - m[k]) / s);
    }
    return sum;
  }

  /** Q(x1 < X <= x2). */
  double qInterval(double x1, double x2) {
    double sum = 0;
    for (int k = 0; k < n.length; k++) {
      sum += b[k] * StandardNormal.interval((x1 - n[k]) / s, (x2 - n[k]) / s);
    }
    return sum;
  }

  /**
   * The components' tails at every point of {@code x}, each on the side of its standardised point
   * that keeps relative accuracy (as {@link StandardNormal#interval} chooses them), so that the
   * masses between neighbouring points and above each point cost no further evaluation of the
   * normal integral: a discretisation evaluates each node's tails once, where it evaluated them
   * for the segment below the node and again for the segment above (and for the node's own delta).
   */
  Tails tails(double[] x) {
    return new Tails(x);
  }

  /** {@link #tails}: per component and point, {@code sf(z)} where {@code z >= 0}, else {@code cdf(z)}. */
  final class Tails {
    private final double[] x;
    private final double[] p; // [k * n + i]
    private final double[] q;

    private Tails(double[] x) {
      this.x = x;
      this.p = sides(x, m);
      this.q = sides(x, n);
    }

    private double[] sides(double[] pts, double[] means) {
      int len = pts.length;
      double[] out = new double[means.length * len];
      for (int k = 0; k < means.length; k++) {
        for (int i = 0; i < len; i++) {
          double z = (pts[i] - means[k]) / s;
          out[k * len + i] = z >= 0 ? StandardNormal.sf(z) : StandardNormal.cdf(z);
        }
      }
      return out;
    }

    /** The mass between points i and i + 1 of the mixture (weights w, means mu, tails t). */
    private double between(double[] w, double[] mu, double[] t, int i) {
      int len = x.length;
      double sum = 0;
      for (int k = 0; k < mu.length; k++) {
        double z1 = (x[i] - mu[k]) / s;
        double z2 = (x[i + 1] - mu[k]) / s;
        double t1 = t[k * len + i];
        double t2 = t[k * len + i + 1];
        double v;
        if (!(z2 > z1)) {
          v = 0.0;
        } else if (z1 >= 0) {
          v = t1 - t2;
        } else if (z2 <= 0) {
          v = t2 - t1;
        } else {
          v = 1.0 - t2 - t1;
        }
        sum += w[k] * v;
      }
      return sum;
    }

    /** The mass above point i. */
    private double above(double[] w, double[] mu, double[] t, int i) {
      int len = x.length;
      double sum = 0;
      for (int k = 0; k < mu.length; k++) {
        double z = (x[i] - mu[k]) / s;
        double v = t[k * len + i];
        sum += w[k] * (z >= 0 ? v : 1.0 - v);
      }
      return sum;
    }

    /** P(x_i < X <= x_{i+1}). */
    double pInterval(int i) {
      return between(a, m, p, i);
    }

    /** Q(x_i < X <= x_{i+1}). */
    double qInterval(int i) {
      return between(b, n, q, i);
    }

    /** P(X > x_i). */
    double pUpper(int i) {
      return above(a, m, p, i);
    }

    /** Q(X > x_i). */
    double qUpper(int i) {
      return above(b, n, q, i);
    }
  }

  /** P-mass placed at infinite loss. */
  double tau() {
    return tau;
  }

  double pUpper(double t) {
    double sum = 0;
    for (int k = 0; k < m.length; k++) {
      sum += a[k] * StandardNormal.sf((t - m[k]) / s);
    }
    return sum;
  }

  double qUpper(double t) {
    double sum = 0;
    for (int k = 0; k < n.length; k++) {
      sum += b[k] * StandardNormal.sf((t - n[k]) / s);
    }
    return sum;
  }

  /** {@code e^eps Q(X > t)}, in log space so that a large eps with a tiny tail does not overflow. */
  double scaledQUpper(double t, double eps) {
    double sum = 0;
    for (int k = 0; k < n.length; k++) {
      if (b[k] > 0) {
        sum += Math.exp(eps + logB[k] + StandardNormal.logCdf(-(t - n[k]) / s));
      }
    }
    return sum;
  }

  private double minMean() {
    double v = Double.POSITIVE_INFINITY;
    for (double x : m) v = Math.min(v, x);
    for (double x : n) v = Math.min(v, x);
    return v;
  }

  private double maxMean() {
    double v = Double.NEGATIVE_INFINITY;
    for (double x : m) v = Math.max(v, x);
    for (double x : n) v = Math.max(v, x);
    return v;
  }

  @Override
  public double lowLoss() {
    return loss(minMean() - TAIL_Z * s);
  }

  @Override
  public double highLoss() {
    return loss(maxMean() + TAIL_Z * s);
  }

  /**
   * The point x with L(x) = eps; NEGATIVE_INFINITY when L > eps everywhere, POSITIVE_INFINITY
   * when L <= eps everywhere (searched over |x| up to 1e6 s).
   */
  double inverseLoss(double eps) {
    double limit = 1e6 * s + Math.abs(maxMean()) + Math.abs(minMean());
    double closed = twoPointInverse(eps);
    if (!Double.isNaN(closed)) {
      if (closed < -limit) {
        return Double.NEGATIVE_INFINITY;
      }
      if (closed > limit) {
        return Double.POSITIVE_INFINITY;
      }
      if (Double.isInfinite(closed)) {
        return closed;
      }
      if (closedFormExact) {
        hint = closed;
        return closed;
      }
      // Newton from the closed form: the closed form's log of a difference loses digits in the
      // bulk (where e^eps is near the weight at 0), one or two steps restore them
      double x = closed;
      for (int it = 0; it < 4; it++) {
        double f = loss(x) - eps;
        double d = lossDerivative(x);
        if (f == 0 || !(d > 0)) {
          break;
        }
        double step = f / d;
        x -= step;
        if (Math.abs(step) <= 1e-15 * Math.max(1.0, Math.abs(x))) {
          hint = x;
          return x;
        }
        if (Math.abs(step) > 1e-6 * Math.max(1.0, Math.abs(x))) {
          break; // not close: the safeguarded search below, from here
        }
      }
      hint = closed;
    }
    double start = Double.isNaN(hint) ? 0.5 * (minMean() + maxMean()) : hint;
    double lo = start;
    double hi = start;
    double step = s;
    while (loss(lo) >= eps) {
      lo -= step;
      step *= 2;
      if (lo < -limit) {
        return Double.NEGATIVE_INFINITY;
      }
    }
    step = s;
    while (loss(hi) < eps) {
      hi += step;
      step *= 2;
      if (hi > limit) {
        return Double.POSITIVE_INFINITY;
      }
    }
    // loss(lo) < eps <= loss(hi): safeguarded Newton.
    double x = Math.min(Math.max(start, lo), hi);
    for (int it = 0; it < 200; it++) {
      double f = loss(x) - eps;
      if (f < 0) {
        lo = x;
      } else {
        hi = x;
      }
      if (hi - lo <= 1e-15 * Math.max(1.0, Math.abs(x)) || f == 0) {
        break;
      }
      double d = lossDerivative(x);
      double next = d > 0 ? x - f / d : Double.NaN;
      if (!(next > lo && next < hi)) {
        next = 0.5 * (lo + hi);
      }
      if (Math.abs(next - x) <= 1e-15 * Math.max(1.0, Math.abs(x))) {
        x = next;
        break;
      }
      x = next;
    }
    hint = x;
    return x;
  }

  /**
   * The point x with L(x) = eps in closed form where the pair is the Poisson-subsampled Gaussian's
   * (a two-point mixture with one component at 0 against N(0, s^2), either way round): P = w_0
   * N(0, s^2) + w_1 N(m, s^2) against N(0, s^2) has {@code e^L = w_0 + w_1 e^{(m x - m^2/2)/s^2}},
   * the reflected pair {@code e^{-L} = w_0 + w_1 e^{(-m x - m^2/2)/s^2}}. NaN for other pairs; a
   * start for Newton's method, which refines it (the closed form alone loses digits in the bulk).
   */
  private double twoPointInverse(double eps) {
    if (b.length == 1 && n[0] == 0 && a.length == 2 && m[0] == 0 && m[1] > 0) {
      double arg = (Math.expm1(eps) + a[1]) / a[1];
      if (!(arg > 0)) {
        return Double.NEGATIVE_INFINITY;
      }
      closedFormExact = arg >= 0.5;
      return (s * s * Math.log(arg) + 0.5 * m[1] * m[1]) / m[1];
    }
    if (a.length == 1 && m[0] == 0 && b.length == 2 && n[0] == 0 && n[1] < 0) {
      double shift = -n[1];
      double arg = (Math.expm1(-eps) + b[1]) / b[1];
      if (!(arg > 0)) {
        return Double.POSITIVE_INFINITY;
      }
      closedFormExact = arg >= 0.5;
      return -(s * s * Math.log(arg) + 0.5 * shift * shift) / shift;
    }
    return Double.NaN;
  }

  /**
   * Whether the last {@link #twoPointInverse} was well conditioned: its log's argument at least
   * 1/2, where the sum before it cancels at most a factor 3 (a few ulps), so Newton's method would
   * not move it.
   */
  private boolean closedFormExact;

  @Override
  public double delta(double eps) {
    double floor = Math.max(0.0, -Math.expm1(eps)); // delta(eps) >= 1 - e^eps always
    double x = inverseLoss(eps);
    double d;
    if (x == Double.POSITIVE_INFINITY) {
      d = tau;
    } else if (x == Double.NEGATIVE_INFINITY) {
      d = 1.0 - Math.exp(eps);
    } else {
      // e^eps Q(x) without overflow: past eps = 709 e^eps alone is infinite, and times a Q tail
      // that underflowed to 0 it would be NaN.
      double q = qUpper(x);
      d = pUpper(x) - (q == 0 ? 0.0 : Math.exp(eps + Math.log(q))) + tau;
    }
    return Math.max(Math.max(d, floor), tau);
  }
}
