package dev.secpe.evolution.secpe;

/**
 * The histogram of {@code SecPE.Builder.secretFreeVotes}, over one label group's candidates: every
 * secret-free record gives one vote to its nearest candidate (exact: public data under (p, r)-secret
 * protection), and every released representative's estimated count of secret holders, {@code
 * max(0, n~_k - n_k)}, is spread over the candidates its cluster's secret-free records voted for, in
 * proportion to their votes; a representative whose cluster has no secret-free record (a cluster of
 * the public corpus) gives its count to the candidate nearest its centre. The votes add up to the
 * number of secret-free records plus the representatives' counts. Post-processing of the release
 * and of public data only.
 */
final class SecretFreeVotes {

  private SecretFreeVotes() {}

  /**
   * @param candidates the number of candidates (positions 0 to candidates - 1)
   * @param recordVote per secret-free record, the position of its nearest candidate
   * @param recordCluster per secret-free record, its cluster
   * @param clusters the number of clusters
   * @param repCluster per released representative, its cluster
   * @param repCount per representative, its estimated count of secret holders (a negative one counts
   *     as 0)
   * @param repNearest per representative, the position of the candidate nearest its centre
   * @return the votes of each candidate position
   */
  static double[] histogram(
      int candidates, int[] recordVote, int[] recordCluster, int clusters, int[] repCluster,
      double[] repCount, int[] repNearest) {
    if (recordVote.length != recordCluster.length || repCluster.length != repCount.length
        || repCount.length != repNearest.length) {
      throw new IllegalArgumentException(
          "one vote and one cluster per record, one cluster, count and nearest candidate per representative");
    }
    double[] out = new double[candidates];
    double[][] clusterVotes = new double[clusters][];
    double[] clusterTotal = new double[clusters];
    for (int i = 0; i < recordVote.length; i++) {
      out[recordVote[i]] += 1;
      int c = recordCluster[i];
      if (clusterVotes[c] == null) {
        clusterVotes[c] = new double[candidates];
      }
      clusterVotes[c][recordVote[i]] += 1;
      clusterTotal[c] += 1;
    }
    for (int q = 0; q < repCount.length; q++) {
      double count = Math.max(0, repCount[q]);
      if (count == 0) {
        continue;
      }
      int c = repCluster[q];
      if (clusterTotal[c] > 0) {
        for (int j = 0; j < candidates; j++) {
          out[j] += count * clusterVotes[c][j] / clusterTotal[c];
        }
      } else {
        out[repNearest[q]] += count;
      }
    }
    return out;
  }
}
