package dev.secpe.clustering;

/**
 * What the secret-clustering release does with a cluster whose noisy count {@code n~_k} is
 * {@code <= 0} (possible when {@code sigma} is large against {@code n_k + m_k}). Every choice
 * acts only on already-noised values, so by post-processing it costs no privacy; it changes
 * utility only.
 */
public enum NonPositiveCountPolicy {
  /** Leave the cluster out of the released representatives. The default. */
  DROP,
  /** Keep the cluster with its count set to 1 (its centre still votes, with minimal weight). */
  CLAMP_TO_ONE,
  /** Keep the raw noisy count, possibly negative (its vote then lowers a candidate's score). */
  KEEP
}
