package dev.secpe.clustering;

/**
 * What k-means does when a Lloyd step leaves a cluster without points. Each choice keeps the
 * inertia non-increasing (an empty cluster contributes nothing, so moving or keeping its centre
 * cannot raise the cost of the current assignment).
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
