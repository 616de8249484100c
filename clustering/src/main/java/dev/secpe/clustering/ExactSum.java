package dev.secpe.clustering;

import java.util.Arrays;

/**
 * Exactly rounded summation of doubles (Shewchuk's non-overlapping partials, as in Python's
 * {@code math.fsum}): the result is the exact sum of the inputs rounded once, independent of
 * order. k-means uses it so that its monotone-inertia guarantee is exact, not "up to rounding".
 */
final class ExactSum {
  private double[] partials = new double[8];
  private int size;

  void add(double x) {
    int i = 0;
    for (int j = 0; j < size; j++) {
      double y = partials[j];
      if (Math.abs(x) < Math.abs(y)) {
        double t = x;
        x = y;
        y = t;
      }
      double hi = x + y;
      double lo = y - (hi - x);
      if (lo != 0.0) {
        partials[i++] = lo;
      }
      x = hi;
    }
    if (i == partials.length) {
      partials = Arrays.copyOf(partials, i * 2);
    }
    partials[i++] = x;
    size = i;
  }

  /** The exact sum, correctly rounded (half-even) to double. */
  double value() {
    if (size == 0) {
      return 0.0;
    }
    int n = size - 1;
    double hi = partials[n];
    double lo = 0;
    while (n > 0) {
      double x = hi;
      double y = partials[--n];
      hi = x + y;
      double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) {
        break;
      }
    }
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
      double y = lo * 2;
      double x = hi + y;
      double yr = x - hi;
      if (y == yr) {
        hi = x;
      }
    }
    return hi;
  }
}
