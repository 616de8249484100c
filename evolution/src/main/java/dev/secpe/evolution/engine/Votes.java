package dev.secpe.evolution.engine;

import java.util.Map;
import java.util.TreeMap;

/**
 * The vote histograms of the three methods, before noise. Pure functions of the nearest-neighbour
 * indices; the noise and its accounting live in the callers.
 */
public final class Votes {

  private Votes() {}

  /**
   * Aug-PE's nearest-neighbour histogram: each private record gives {@code 1/sqrt(k)} to each of its
   * k nearest candidates, so one record moves the histogram by exactly 1 in L2 norm (the
   * sensitivity the Gaussian noise is calibrated to).
   *
   * <p>Votes are counted as integers first and weighted once ({@code count / sqrt(k)}), so a
   * candidate's entry does not depend on the order of the records and equal counts give equal
   * entries exactly. Rows shorter than k (fewer candidates than k) are weighted by their own
   * length, each length counted apart.
   *
   * @param nearest for each private record, the indices of its k nearest candidates (distinct)
   * @param candidates number of candidates (histogram length)
   */
  public static double[] nearestNeighbour(int[][] nearest, int candidates) {
    Map<Integer, long[]> countsByK = new TreeMap<>();
    for (int[] row : nearest) {
      if (row.length == 0) {
        continue;
      }
      long[] counts = countsByK.computeIfAbsent(row.length, k -> new long[candidates]);
      for (int j : row) {
        counts[j]++;
      }
    }
    double[] h = new double[candidates];
    for (Map.Entry<Integer, long[]> e : countsByK.entrySet()) {
      double w = 1.0 / Math.sqrt(e.getKey());
      long[] counts = e.getValue();
      for (int j = 0; j < candidates; j++) {
        h[j] += counts[j] * w;
      }
    }
    return h;
  }

  /**
   * SecPE's representative vote (Algorithm 3, lines 8-11): the candidate nearest to noisy centre k
   * receives the centre's noisy count. Post-processing of the one secret-clustering release.
   *
   * @param nearestCandidateOfCentre for each centre, the index of its nearest candidate
   * @param noisyCounts for each centre, its released noisy count
   * @param candidates number of candidates
   */
  public static double[] representative(
      int[] nearestCandidateOfCentre, double[] noisyCounts, int candidates) {
    if (nearestCandidateOfCentre.length != noisyCounts.length) {
      throw new IllegalArgumentException(
          "one nearest candidate per centre required, got "
              + nearestCandidateOfCentre.length
              + " indices for "
              + noisyCounts.length
              + " centres");
    }
    double[] h = new double[candidates];
    for (int k = 0; k < noisyCounts.length; k++) {
      h[nearestCandidateOfCentre[k]] += noisyCounts[k];
    }
    return h;
  }

  /** Aug-PE's threshold H: noisy counts below {@code h} become 0 (post-processing). */
  public static double[] threshold(double[] noisy, double h) {
    double[] out = new double[noisy.length];
    for (int i = 0; i < noisy.length; i++) {
      out[i] = noisy[i] < h ? 0.0 : noisy[i];
    }
    return out;
  }
}
