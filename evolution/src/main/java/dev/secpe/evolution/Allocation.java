package dev.secpe.evolution;

/**
 * Splits a total into integer shares proportional to weights by the largest-remainder (Hamilton)
 * method: every share is {@code floor(total * w_i / sum w)} or one more, the shares sum to exactly
 * {@code total}, and leftover units go to the largest remainders (ties to the lower index). Negative
 * weights count as zero; if no weight is positive the split is as even as possible.
 */
final class Allocation {

  private Allocation() {}

  static int[] largestRemainder(double[] weights, int total) {
    if (total < 0) {
      throw new IllegalArgumentException("total must be >= 0, got total=" + total);
    }
    if (weights.length == 0) {
      throw new IllegalArgumentException("weights must not be empty");
    }
    double[] w = new double[weights.length];
    double sum = 0;
    for (int i = 0; i < w.length; i++) {
      if (Double.isNaN(weights[i]) || Double.isInfinite(weights[i])) {
        throw new IllegalArgumentException(
            "weights must be finite, got weights[" + i + "]=" + weights[i]);
      }
      w[i] = Math.max(weights[i], 0.0);
      sum += w[i];
    }
    if (!(sum > 0)) {
      java.util.Arrays.fill(w, 1.0);
      sum = w.length;
    }
    int[] share = new int[w.length];
    double[] remainder = new double[w.length];
    int assigned = 0;
    for (int i = 0; i < w.length; i++) {
      double exact = total * (w[i] / sum);
      share[i] = (int) Math.floor(exact);
      remainder[i] = exact - share[i];
      assigned += share[i];
    }
    int[] order = Selection.topN(remainder, remainder.length);
    for (int k = 0; assigned < total; k++) {
      share[order[k % order.length]]++;
      assigned++;
    }
    return share;
  }
}
