package dev.secpe.evaluation;

import java.util.Arrays;

/**
 * The outcome of {@link Mauve}: the score, the histograms it came from and the divergence curve.
 * Arrays are copied in and out, so the record is immutable.
 *
 * @param mauve the area under the divergence curve, in [0, 1]: 1 when P = Q, and positive for
 *     any P and Q at the default scaling constant (the smallest curve values are exp(-5 *
 *     ln(1e6)) ~ 1e-30); 0 only when a large scaling constant underflows every point
 * @param p the histogram of the first set (real text), summing to 1
 * @param q the histogram of the second set (synthetic text), summing to 1
 * @param divergenceCurve the curve's points {x, y}, from (0, 1) through the mixtures (lambda
 *     decreasing) to (1, 0)
 */
public record MauveResult(double mauve, double[] p, double[] q, double[][] divergenceCurve) {

  /** Validates and copies. */
  public MauveResult {
    if (!(mauve >= 0 && mauve <= 1)) {
      throw new IllegalArgumentException("mauve must be in [0, 1], got mauve=" + mauve);
    }
    p = p.clone();
    q = q.clone();
    divergenceCurve = deepCopy(divergenceCurve);
  }

  /** The number of histogram bins. */
  public int clusters() {
    return p.length;
  }

  /** The histogram of the first set (a copy). */
  @Override
  public double[] p() {
    return p.clone();
  }

  /** The histogram of the second set (a copy). */
  @Override
  public double[] q() {
    return q.clone();
  }

  /** The divergence curve's points (a deep copy). */
  @Override
  public double[][] divergenceCurve() {
    return deepCopy(divergenceCurve);
  }

  private static double[][] deepCopy(double[][] a) {
    double[][] out = new double[a.length][];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i].clone();
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MauveResult r
        && Double.compare(r.mauve, mauve) == 0
        && Arrays.equals(r.p, p)
        && Arrays.equals(r.q, q)
        && Arrays.deepEquals(r.divergenceCurve, divergenceCurve);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Double.hashCode(mauve) + Arrays.hashCode(p)) + Arrays.hashCode(q);
  }

  @Override
  public String toString() {
    return "MauveResult[mauve=" + mauve + ", clusters=" + p.length + "]";
  }
}
