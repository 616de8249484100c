package dev.secpe.evolution.engine;

import java.util.Arrays;
import java.util.List;

/**
 * Splits a total into integer shares proportional to weights by the largest-remainder (Hamilton)
 * method: every share is {@code floor(total * w_i / sum w)} or one more, the shares sum to exactly
 * {@code total}, and leftover units go to the largest remainders (ties to the lower index). Negative
 * weights count as zero; if no weight is positive the split is as even as possible.
 */
public final class Allocation {

  private Allocation() {}

  /**
   * {@code total} whole units split in proportion to the positive part of {@code weights} (equally
   * when none is positive) by largest remainder, the largest remainders taken first.
   */
  public static int[] largestRemainder(double[] weights, int total) {
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
      Arrays.fill(w, 1.0);
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

  /**
   * Takes up to {@code take} members from {@code pools} (each ordered best first): slots go to the
   * pools by {@link #largestRemainder} over the positive part of {@code weights} (all open pools
   * alike when none is positive), each pool gives its next members, and slots a pool cannot fill
   * are split again over the pools that still have members. Pools are visited in {@code order}.
   *
   * @return the members taken, pool by pool in visiting order, at most {@code take}
   */
  public static int[] fillPools(List<List<Integer>> pools, double[] weights, int take, int[] order) {
    int k = pools.size();
    int[] used = new int[k];
    int[] out = new int[take];
    int chosen = 0;
    while (chosen < take) {
      double[] open = new double[k];
      boolean any = false;
      boolean positive = false;
      for (int r = 0; r < k; r++) {
        if (used[r] < pools.get(r).size()) {
          open[r] = Math.max(0.0, weights[r]);
          any = true;
          positive |= open[r] > 0;
        }
      }
      if (!any) {
        break;
      }
      if (!positive) {
        for (int r = 0; r < k; r++) {
          open[r] = used[r] < pools.get(r).size() ? 1.0 : 0.0;
        }
      }
      int[] slots = largestRemainder(open, take - chosen);
      int before = chosen;
      for (int r : order) {
        List<Integer> pool = pools.get(r);
        int s = Math.min(slots[r], pool.size() - used[r]);
        for (int q = 0; q < s && chosen < take; q++) {
          out[chosen++] = pool.get(used[r]++);
        }
      }
      if (chosen == before) {
        break; // defensive: no progress possible
      }
    }
    return chosen == take ? out : Arrays.copyOf(out, chosen);
  }
}
