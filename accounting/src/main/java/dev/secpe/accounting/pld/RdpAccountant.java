package dev.secpe.accounting.pld;

import dev.secpe.accounting.Preconditions;

/**
 * Rényi-DP accountant for the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang
 * 2019, "Rényi Differential Privacy of the Sampled Gaussian Mechanism"), a cross-check of the
 * PLD accountant.
 *
 * <p>For an order alpha, {@code RDP(alpha) = log(A_alpha) / (alpha - 1)} with {@code A_alpha =
 * E_{x ~ N(0, s^2)} [((1 - q) + q e^{(2x - 1)/(2 s^2)})^alpha]}: for integer orders the exact
 * binomial expansion {@code A_alpha = sum_k C(alpha, k) (1-q)^{alpha-k} q^k e^{(k^2 - k)/(2
 * s^2)}} (their Theorem 5 / §3.3); for fractional orders the same expectation by the trapezoid
 * rule in log space over the Gaussian-like integrand (step s/64, 40 s on each side of the peak),
 * which converges geometrically for such integrands. T steps compose additively.
 *
 * <p>Conversion to (eps, delta) is the one of Balle et al. 2020 ("Hypothesis testing
 * interpretations and Rényi DP", Thm 21) also used by TensorFlow Privacy: {@code eps = RDP -
 * (log delta + log alpha)/(alpha - 1) + log((alpha - 1)/alpha)}, minimised over the orders.
 * It is tighter than the classical {@code RDP + log(1/delta)/(alpha - 1)} and still a valid
 * upper bound; the minimum over a finite order grid is itself an upper bound.
 */
public final class RdpAccountant {

  private static final double[] ORDERS = buildOrders();

  private RdpAccountant() {}

  private static double[] buildOrders() {
    double[] small = {1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.5, 4, 4.5};
    double[] out = new double[small.length + 59 + 3];
    int k = 0;
    for (double v : small) out[k++] = v;
    for (int a = 5; a <= 63; a++) out[k++] = a;
    out[k++] = 128;
    out[k++] = 256;
    out[k++] = 512;
    return out;
  }

  /** The default orders: 1.25 .. 4.5 in quarter/half steps, 5 .. 63, 128, 256, 512. */
  public static double[] defaultOrders() {
    return ORDERS.clone();
  }

  /** RDP at order {@code alpha} of one step of the subsampled Gaussian (sensitivity 1). */
  public static double subsampledGaussianRdp(double samplingRate, double noiseMultiplier, double alpha) {
    Preconditions.checkProbabilityPositive("samplingRate", samplingRate);
    Preconditions.checkPositive("noiseMultiplier", noiseMultiplier);
    Preconditions.checkPositive("alpha", alpha);
    if (!(alpha > 1)) {
      throw new IllegalArgumentException("alpha must be > 1, got alpha=" + alpha);
    }
    double q = samplingRate;
    double s = noiseMultiplier;
    if (q == 1.0) {
      return alpha / (2 * s * s);
    }
    double logA = alpha == Math.rint(alpha) && alpha <= 4096
        ? logAInteger((int) alpha, q, s)
        : logAQuadrature(alpha, q, s);
    return logA / (alpha - 1);
  }

  static double logAInteger(int alpha, double q, double s) {
    double logq = Math.log(q);
    double log1mq = Math.log1p(-q);
    double[] terms = new double[alpha + 1];
    double logBinom = 0; // log C(alpha, 0)
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k <= alpha; k++) {
      if (k > 0) {
        logBinom += Math.log((double) (alpha - k + 1) / k);
      }
      terms[k] = logBinom + k * logq + (alpha - k) * log1mq + (k * (double) k - k) / (2 * s * s);
      max = Math.max(max, terms[k]);
    }
    double sum = 0;
    for (double t : terms) {
      sum += Math.exp(t - max);
    }
    return max + Math.log(sum);
  }

  static double logAQuadrature(double alpha, double q, double s) {
    double s2 = s * s;
    double logq = Math.log(q);
    double log1mq = Math.log1p(-q);
    double lo = Math.min(0, alpha) - 40 * s - 1;
    double hi = Math.max(0, alpha) + 40 * s + 1;
    double dx = s / 64;
    int n = (int) Math.ceil((hi - lo) / dx);
    double max = Double.NEGATIVE_INFINITY;
    double[] f = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      double x = lo + i * dx;
      double z = (2 * x - 1) / (2 * s2);
      // log((1-q) + q e^z) computed stably
      double a = log1mq;
      double b = logq + z;
      double lse = Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
      f[i] = -x * x / (2 * s2) + alpha * lse;
      max = Math.max(max, f[i]);
    }
    double sum = 0;
    for (int i = 0; i <= n; i++) {
      double w = (i == 0 || i == n) ? 0.5 : 1.0;
      sum += w * Math.exp(f[i] - max);
    }
    return max + Math.log(sum * dx) - Math.log(s * Math.sqrt(2 * Math.PI));
  }

  /** The epsilon of {@code steps} steps at {@code delta}, minimised over the default orders. */
  public static double epsilon(double samplingRate, double noiseMultiplier, int steps, double delta) {
    Preconditions.checkPositive("steps", steps);
    Preconditions.checkOpenUnit("delta", delta);
    double best = Double.POSITIVE_INFINITY;
    for (double a : ORDERS) {
      double rdp = steps * subsampledGaussianRdp(samplingRate, noiseMultiplier, a);
      double eps = rdp - (Math.log(delta) + Math.log(a)) / (a - 1) + Math.log((a - 1) / a);
      best = Math.min(best, eps);
    }
    return Math.max(0.0, best);
  }
}
