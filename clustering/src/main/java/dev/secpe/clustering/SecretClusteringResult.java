package dev.secpe.clustering;

import dev.secpe.core.EmbeddingMatrix;

import dev.secpe.accounting.ledger.Release;

/**
 * The released noisy representatives of SecPE Algorithm 2: everything here is differentially
 * private output (post-processing is free); nothing private is kept.
 *
 * @param centres the released noisy centres {@code e~_k}, one row per kept cluster; {@code null}
 *     when {@link NonPositiveCountPolicy#DROP} dropped every cluster
 * @param counts the released noisy counts {@code n~_k} after the {@link NonPositiveCountPolicy}
 * @param clusterIndex for each kept row, the index k of the public cluster it came from
 * @param publicClusters K, the number of public clusters
 * @param policy the policy applied to non-positive noisy counts
 * @param release the release as charged to the ledger
 * @param noiseIsPrivate whether the noise came from a private (secure) source; {@code false}
 *     marks a reproducible test run that must not be published
 * @param noiseDescription the noise source's description
 */
public record SecretClusteringResult(
    EmbeddingMatrix centres,
    double[] counts,
    int[] clusterIndex,
    int publicClusters,
    NonPositiveCountPolicy policy,
    Release release,
    boolean noiseIsPrivate,
    String noiseDescription) {

  /** Copies the arrays. */
  public SecretClusteringResult {
    counts = counts.clone();
    clusterIndex = clusterIndex.clone();
  }

  /** The released noisy counts, one per kept cluster (a copy). */
  @Override
  public double[] counts() {
    return counts.clone();
  }

  /** For each kept row, the index of the public cluster it came from (a copy). */
  @Override
  public int[] clusterIndex() {
    return clusterIndex.clone();
  }

  /** Number of released representatives (K minus dropped clusters). */
  public int size() {
    return counts.length;
  }
}
