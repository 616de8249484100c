package dev.secpe.clustering;

import dev.secpe.core.EmbeddingMatrix;

/**
 * The outcome of {@link KMeans#fit}: the best restart (lowest final inertia; the lowest restart
 * index on ties).
 *
 * @param metric the metric the clustering used
 * @param centres the k centres (unit vectors under {@link Metric#COSINE})
 * @param sizes points assigned to each centre by the final assignment
 * @param assignments for each data row, the index of its centre
 * @param inertiaPerIteration the inertia after each assignment step (L2: sum of squared
 *     distances; cosine: sum of {@code max(0, 1 - cos)}, the clamp absorbing rounding of unit vectors); never
 *     increases
 * @param converged whether the tolerance (or a fixed point) was reached before the iteration cap
 * @param restart which restart produced this result (0-based)
 * @param restarts how many restarts ran
 */
public record KMeansResult(
    Metric metric,
    EmbeddingMatrix centres,
    int[] sizes,
    int[] assignments,
    double[] inertiaPerIteration,
    boolean converged,
    int restart,
    int restarts) {

  /** Copies the arrays. */
  public KMeansResult {
    sizes = sizes.clone();
    assignments = assignments.clone();
    inertiaPerIteration = inertiaPerIteration.clone();
  }

  /** A copy of the cluster sizes. */
  @Override
  public int[] sizes() {
    return sizes.clone();
  }

  /** A copy of the assignments. */
  @Override
  public int[] assignments() {
    return assignments.clone();
  }

  /** A copy of the inertia after each iteration. */
  @Override
  public double[] inertiaPerIteration() {
    return inertiaPerIteration.clone();
  }

  /** Number of clusters. */
  public int k() {
    return sizes.length;
  }

  /** The final inertia. */
  public double inertia() {
    return inertiaPerIteration[inertiaPerIteration.length - 1];
  }

  /** How many clusters hold no point (see {@link EmptyClusterPolicy} for when k-means leaves one). */
  public int emptyClusters() {
    int out = 0;
    for (int s : sizes) {
      out += s == 0 ? 1 : 0;
    }
    return out;
  }

  /**
   * This result without its empty clusters: the centres that hold a point, in their order, their
   * sizes, and every point assigned to the same centre under its new index; the inertia history,
   * convergence and restart are unchanged (an empty cluster adds nothing to the inertia). This
   * result itself when no cluster is empty.
   */
  public KMeansResult withoutEmptyClusters() {
    int kept = k() - emptyClusters();
    if (kept == k()) {
      return this;
    }
    int[] index = new int[k()];
    int[] keptSizes = new int[kept];
    float[][] keptCentres = new float[kept][];
    int next = 0;
    for (int c = 0; c < k(); c++) {
      if (sizes[c] > 0) {
        index[c] = next;
        keptSizes[next] = sizes[c];
        keptCentres[next] = centres.row(c);
        next++;
      } else {
        index[c] = -1;
      }
    }
    int[] keptAssign = new int[assignments.length];
    for (int i = 0; i < keptAssign.length; i++) {
      keptAssign[i] = index[assignments[i]];
    }
    return new KMeansResult(metric, EmbeddingMatrix.of(keptCentres), keptSizes, keptAssign, inertiaPerIteration,
        converged, restart, restarts);
  }

  /** Number of Lloyd iterations (assignment steps) run. */
  public int iterations() {
    return inertiaPerIteration.length;
  }
}
