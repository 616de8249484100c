package dev.secpe.evolution.dpga;

import dev.secpe.evolution.engine.Selection;

import java.util.HashMap;
import java.util.Map;

/**
 * DPGA-TextSyn's distinct elite selection (§3.3.2): candidates are taken in descending order of
 * votes, and each one taken excludes every remaining candidate whose cosine similarity to it
 * exceeds {@code tau}; if fewer than {@code n} are taken, {@code tau} grows by {@code step} and the
 * pass is repeated; once {@code tau} reaches 1 only exact duplicates are excluded, and the rest is
 * filled by votes. Post-processing of the noisy votes and of the (DP) threshold, so free.
 */
public final class SimilaritySuppression {

  private SimilaritySuppression() {}

  /**
   * Result of a suppression pass.
   *
   * @param selected the chosen indices, best vote first
   * @param finalTau the threshold at which enough candidates survived
   */
  public record Outcome(int[] selected, double finalTau) {}

  /**
   * Selects {@code n} distinct elites.
   *
   * @param votes noisy votes per candidate
   * @param unit unit-norm embeddings, one row per candidate
   * @param tau the starting similarity threshold
   * @param step how much tau grows when too few survive (the paper: 0.01)
   * @param n how many to select
   */
  public static Outcome select(double[] votes, float[][] unit, double tau, double step, int n) {
    if (votes.length != unit.length) {
      throw new IllegalArgumentException(
          "votes and embeddings differ in length: " + votes.length + " vs " + unit.length);
    }
    if (n < 0 || n > votes.length) {
      throw new IllegalArgumentException("n must be in [0, " + votes.length + "], got n=" + n);
    }
    if (!(step > 0)) {
      throw new IllegalArgumentException("step must be > 0, got step=" + step);
    }
    int[] order = Selection.topN(votes, votes.length);
    Map<Integer, float[]> rows = new HashMap<>();
    double t = tau;
    while (true) {
      int[] chosen = new int[n];
      int count = 0;
      boolean[] excluded = new boolean[votes.length];
      for (int i : order) {
        if (count == n) {
          break;
        }
        if (excluded[i]) {
          continue;
        }
        chosen[count++] = i;
        float[] sims = rows.computeIfAbsent(i, k -> similarities(unit, k));
        for (int j = 0; j < sims.length; j++) {
          if (sims[j] > t) {
            excluded[j] = true;
          }
        }
      }
      if (count == n) {
        return new Outcome(chosen, t);
      }
      if (t >= 1.0) {
        // Only (near-)duplicates are still excluded: fill with the best remaining by votes.
        boolean[] taken = new boolean[votes.length];
        for (int c = 0; c < count; c++) {
          taken[chosen[c]] = true;
        }
        for (int i : order) {
          if (count == n) {
            break;
          }
          if (!taken[i]) {
            chosen[count++] = i;
          }
        }
        return new Outcome(chosen, t);
      }
      t += step;
    }
  }

  private static float[] similarities(float[][] unit, int i) {
    float[] a = unit[i];
    float[] out = new float[unit.length];
    for (int j = 0; j < unit.length; j++) {
      float[] b = unit[j];
      float s = 0;
      for (int d = 0; d < a.length; d++) {
        s += a[d] * b[d];
      }
      out[j] = s;
    }
    return out;
  }
}
