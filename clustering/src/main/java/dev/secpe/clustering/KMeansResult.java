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

  /** Number of Lloyd iterations (assignment steps) run. */
  public int iterations() {
    return inertiaPerIteration.length;
  }
}
