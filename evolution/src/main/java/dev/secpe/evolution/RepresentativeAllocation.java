package dev.secpe.evolution;

import dev.secpe.core.EmbeddingMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SecPE's {@link SecPE.SelectionMode#ALLOCATED} selection: survivors follow the released private
 * mass over representatives. Every candidate belongs to its nearest representative (cosine, ties to
 * the lower index); representative k gets {@code round(n * w_k / sum w)} slots by largest
 * remainder, fills them with its own candidates nearest first, and slots it cannot fill are split
 * again over the representatives that still have candidates, until {@code n} survivors are chosen
 * or no candidate is left. Post-processing of released values only: it costs no privacy.
 */
final class RepresentativeAllocation {

  private RepresentativeAllocation() {}

  /**
   * @param centres the released representatives (unit rows)
   * @param weights their estimated private mass (negative values count as zero; if none is
   *     positive every representative weighs the same)
   * @param unit the candidates' unit embeddings
   * @param candidates the rows of {@code unit} to choose from
   * @param n how many to choose
   * @return chosen rows of {@code unit}, in the order taken (heaviest representatives first)
   */
  static int[] select(
      EmbeddingMatrix centres, double[] weights, EmbeddingMatrix unit, int[] candidates, int n) {
    int k = centres.rows();
    if (weights.length != k) {
      throw new IllegalArgumentException(
          "weights must have one entry per representative, got " + weights.length + " for " + k);
    }
    int take = Math.min(n, candidates.length);
    if (take == 0) {
      return new int[0];
    }
    // Each candidate's nearest representative and its similarity.
    int[] all = java.util.stream.IntStream.range(0, k).toArray();
    int[] owner = Kernel.top1(unit, candidates, centres, all);
    double[] sim = new double[candidates.length];
    for (int c = 0; c < candidates.length; c++) {
      sim[c] = dot(unit.row(candidates[c]), centres.row(owner[c]));
    }
    // Pools: per representative, its candidates nearest first (ties to the lower index).
    List<List<Integer>> pools = new ArrayList<>(k);
    for (int r = 0; r < k; r++) {
      pools.add(new ArrayList<>());
    }
    for (int c = 0; c < candidates.length; c++) {
      pools.get(owner[c]).add(c);
    }
    for (List<Integer> pool : pools) {
      pool.sort((a, b) -> {
        int cmp = Double.compare(sim[b], sim[a]);
        return cmp != 0 ? cmp : Integer.compare(a, b);
      });
    }
    double[] w = new double[k];
    for (int r = 0; r < k; r++) {
      w[r] = Math.max(0.0, weights[r]);
    }
    int[] used = new int[k];
    int[] order = Selection.topN(w, k);
    int[] out = new int[take];
    int chosen = 0;
    while (chosen < take) {
      double[] open = new double[k];
      boolean any = false;
      for (int r = 0; r < k; r++) {
        if (used[r] < pools.get(r).size()) {
          open[r] = w[r];
          any = true;
        }
      }
      if (!any) {
        break; // unreachable: take <= candidates
      }
      boolean positive = false;
      for (int r = 0; r < k; r++) {
        positive |= open[r] > 0;
      }
      if (!positive) {
        for (int r = 0; r < k; r++) {
          open[r] = used[r] < pools.get(r).size() ? 1.0 : 0.0;
        }
      }
      int[] slots = Allocation.largestRemainder(open, take - chosen);
      int before = chosen;
      for (int r : order) {
        List<Integer> pool = pools.get(r);
        int s = Math.min(slots[r], pool.size() - used[r]);
        for (int q = 0; q < s; q++) {
          out[chosen++] = candidates[pool.get(used[r]++)];
        }
      }
      if (chosen == before) {
        break; // defensive: no progress possible
      }
    }
    return chosen == take ? out : Arrays.copyOf(out, chosen);
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int j = 0; j < a.length; j++) {
      s += (double) a[j] * b[j];
    }
    return s;
  }
}
