package dev.secpe.evolution.secpe;

import dev.secpe.evolution.ClusterVotes;

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
   * @param votes per cluster, how many of its secret-free records voted for each candidate position
   * @param recordsVote whether the records' votes are counted themselves (the split's secret-free
   *     records, private data), or only guide the representatives' counts (the public corpus's
   *     members without the split: counting them would pull towards the public corpus)
   * @param clusters the number of clusters
   * @param repCluster per released representative, its cluster
   * @param repCount per representative, its estimated count of secret holders (a negative one counts
   *     as 0)
   * @param repNearest per representative, the position of the candidate nearest its centre
   * @return the votes of each candidate position
   */
  static double[] histogram(
      int candidates, ClusterVotes votes, boolean recordsVote, int clusters, int[] repCluster, double[] repCount,
      int[] repNearest) {
    if (repCluster.length != repCount.length || repCount.length != repNearest.length) {
      throw new IllegalArgumentException("one cluster, count and nearest candidate per representative");
    }
    double[] out = new double[candidates];
    // The votes come sorted by cluster: cluster c's are pairs [first[c], first[c + 1]).
    int[] first = new int[clusters + 1];
    double[] clusterTotal = new double[clusters];
    for (int i = 0; i < votes.pairs(); i++) {
      int c = votes.cluster(i);
      if (c >= clusters || votes.candidate(i) >= candidates) {
        throw new IllegalArgumentException(
            "votes name cluster " + c + " and candidate " + votes.candidate(i) + ", outside " + clusters
                + " clusters and " + candidates + " candidates");
      }
      if (recordsVote) {
        out[votes.candidate(i)] += votes.count(i);
      }
      clusterTotal[c] += votes.count(i);
      first[c + 1] = i + 1;
    }
    for (int c = 1; c <= clusters; c++) {
      first[c] = Math.max(first[c], first[c - 1]);
    }
    for (int q = 0; q < repCount.length; q++) {
      double count = Math.max(0, repCount[q]);
      if (count == 0) {
        continue;
      }
      int c = repCluster[q];
      if (clusterTotal[c] > 0) {
        for (int i = first[c]; i < first[c + 1]; i++) {
          out[votes.candidate(i)] += count * votes.count(i) / clusterTotal[c];
        }
      } else {
        out[repNearest[q]] += count;
      }
    }
    return out;
  }
}
