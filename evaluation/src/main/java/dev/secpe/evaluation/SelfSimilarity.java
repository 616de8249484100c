package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;

/**
 * Self-similarity of a set of texts, as DPGA-TextSyn (Fig. 3) reports it to show diversity (or
 * its collapse): the mean cosine similarity between the embeddings of two different texts of the
 * set,
 *
 * <pre>
 *   S = (1 / (n (n - 1))) sum_{i != j} cos(e_i, e_j).
 * </pre>
 *
 * With unit rows u_i this is (||sum_i u_i||^2 - n) / (n (n - 1)), computed in O(n d). Higher
 * means less diverse; 1 means every text embeds in one direction.
 */
public final class SelfSimilarity {

  private SelfSimilarity() {}

  /**
   * The mean off-diagonal pairwise cosine similarity of the rows, in [-1, 1].
   *
   * @throws IllegalArgumentException if there are fewer than 2 rows
   * @throws IllegalStateException if a row has norm 0 (its cosine is undefined)
   */
  public static double meanPairwiseCosine(EmbeddingMatrix embeddings) {
    Checks.rowsAtLeast(embeddings, "embeddings", 2);
    int n = embeddings.rows();
    int d = embeddings.dimension();
    double[] sum = new double[d];
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      double norm = embeddings.rowNorm(i);
      if (norm == 0) {
        throw new IllegalStateException(
            "row " + i + " has norm 0: cosine similarity is undefined");
      }
      double rowSq = 0;
      for (int j = 0; j < d; j++) {
        double u = embeddings.get(i, j) / norm;
        sum[j] += u;
        rowSq += u * u;
      }
      sumSq += rowSq;
    }
    double total = 0;
    for (double s : sum) {
      total += s * s;
    }
    double value = (total - sumSq) / ((double) n * (n - 1));
    return Math.max(-1.0, Math.min(1.0, value));
  }
}
