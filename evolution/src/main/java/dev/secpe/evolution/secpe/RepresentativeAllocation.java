package dev.secpe.evolution.secpe;

import dev.secpe.evolution.engine.Allocation;
import dev.secpe.evolution.kernel.Kernel;
import dev.secpe.evolution.engine.Selection;

import dev.secpe.core.EmbeddingMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * SecPE's {@code SecPE.SelectionMode.ALLOCATED} selection: survivors follow the released private
 * mass over representatives. Every candidate belongs to its nearest representative (cosine in the
 * run's {@link VoteGeometry}, ties to the lower index); representative k gets {@code round(n * w_k / sum w)} slots by largest
 * remainder, fills them with its own candidates nearest first, and slots it cannot fill are split
 * again over the representatives that still have candidates, until {@code n} survivors are chosen
 * or no candidate is left. Post-processing of released values only: it costs no privacy.
 */
public final class RepresentativeAllocation {

  private RepresentativeAllocation() {}

  /**
   * @param centres the released representatives (unit rows)
   * @param weights their estimated private mass (negative values count as zero; if none is
   *     positive every representative weighs the same)
   * @param unit the candidates' unit embeddings
   * @param candidates the rows of {@code unit} to choose from
   * @param n how many to choose
   * @param centre the point similarities are measured from ({@link Kernel#voteCentre}), or {@code
   *     null} for plain cosine
   * @return chosen rows of {@code unit}, in the order taken (heaviest representatives first)
   */
  public static int[] select(
      EmbeddingMatrix centres, double[] weights, EmbeddingMatrix unit, int[] candidates, int n,
      float[] centre) {
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
    int[] all = Kernel.iota(k);
    EmbeddingMatrix cand = Kernel.centred(unit, candidates, centre);
    EmbeddingMatrix reps = Kernel.centred(centres, all, centre);
    int[] owner = Kernel.top1(cand, Kernel.iota(candidates.length), reps, all);
    double[] sim = new double[candidates.length];
    for (int c = 0; c < candidates.length; c++) {
      sim[c] = dot(cand.row(c), reps.row(owner[c]));
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
    int[] picked = Allocation.fillPools(pools, weights, take, Selection.topN(positivePart(weights), k));
    int[] out = new int[picked.length];
    for (int i = 0; i < picked.length; i++) {
      out[i] = candidates[picked[i]];
    }
    return out;
  }

  private static double[] positivePart(double[] w) {
    double[] out = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      out[i] = Math.max(0.0, w[i]);
    }
    return out;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int j = 0; j < a.length; j++) {
      s += (double) a[j] * b[j];
    }
    return s;
  }
}
