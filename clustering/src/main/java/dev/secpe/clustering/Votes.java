package dev.secpe.clustering;

/**
 * The two ways private data votes for candidates, both on the {@link NearestNeighbours} kernel.
 * Neither adds noise: the Aug-PE histogram still needs its Gaussian release; the SecPE
 * histogram is post-processing of an already-released {@link SecretClusteringResult}.
 */
public final class Votes {

  private Votes() {}

  /**
   * Aug-PE's vote before noise: each private row votes for its nearest candidate, {@code
   * h[j] = |{i : nearest(private_i) = j}|}. Cost {@code O(N_private x N_candidates x d)} per round.
   */
  public static long[] nearestNeighbourVote(
      NearestNeighbours kernel, RowSource privateRows, Embeddings candidates) {
    return kernel.nearestCounts(privateRows, candidates);
  }

  /**
   * SecPE's representative vote (Algorithm 3, lines 8-11): for each released noisy centre
   * {@code e~_k}, its nearest candidate gets {@code +n~_k}. Cost {@code O(K x N_candidates x d)}.
   *
   * @param kernel the kernel (its metric should be the one the representatives were built with)
   * @param released the released representatives
   * @param candidates the candidates' embeddings
   * @return the histogram over candidates (doubles: noisy counts are real-valued)
   */
  public static double[] representativeVote(
      NearestNeighbours kernel, SecretClusteringResult released, Embeddings candidates) {
    if (released == null || candidates == null) {
      throw new IllegalArgumentException("released and candidates must not be null");
    }
    double[] h = new double[candidates.size()];
    if (released.size() == 0) {
      return h;
    }
    return representativeVote(kernel, released.centres(), released.counts(), candidates);
  }

  /** As {@link #representativeVote(NearestNeighbours, SecretClusteringResult, Embeddings)}. */
  public static double[] representativeVote(
      NearestNeighbours kernel, Embeddings centres, double[] weights, Embeddings candidates) {
    if (kernel == null || centres == null || weights == null || candidates == null) {
      throw new IllegalArgumentException("kernel, centres, weights and candidates must not be null");
    }
    if (weights.length != centres.size()) {
      throw new IllegalArgumentException(
          "weights.length must equal centres.rows, got weights.length=" + weights.length
              + " centres.rows=" + centres.size());
    }
    for (int q = 0; q < weights.length; q++) {
      if (!Double.isFinite(weights[q])) {
        throw new IllegalArgumentException(
            "weights must be finite, got weights[" + q + "]=" + weights[q]);
      }
    }
    double[] h = new double[candidates.size()];
    int[] nearest = kernel.top1(centres, candidates).index();
    for (int q = 0; q < nearest.length; q++) {
      h[nearest[q]] += weights[q];
    }
    return h;
  }
}
