package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How much of a synthetic set repeats itself: exact copies (the same text, character for
 * character) and near-duplicates (distinct texts whose embeddings are at least {@code threshold}
 * cosine-similar to another distinct text of the set). A set that collapses onto a few texts looks
 * close to the real data on a mean-based distance while it carries little of it; both counts are
 * reported beside every distance.
 *
 * @param texts the number of texts
 * @param distinct the number of distinct texts ({@code texts - distinct} are exact copies of an
 *     earlier text)
 * @param nearDuplicates the number of distinct texts that have another distinct text at cosine
 *     similarity {@code >= threshold}
 * @param threshold the cosine similarity from which two distinct texts count as near-duplicates
 */
public record Duplicates(int texts, int distinct, int nearDuplicates, double threshold) {

  /**
   * The default near-duplicate threshold: at cosine 0.95 two MiniLM sentence embeddings are
   * paraphrases or one text with a line or a few words changed.
   */
  public static final double DEFAULT_THRESHOLD = 0.95;

  /** Validates the counts. */
  public Duplicates {
    if (texts < 0 || distinct < 0 || distinct > texts || nearDuplicates < 0 || nearDuplicates > distinct) {
      throw new IllegalArgumentException(
          "need 0 <= nearDuplicates <= distinct <= texts, got texts=" + texts + " distinct=" + distinct
              + " nearDuplicates=" + nearDuplicates);
    }
    if (!(threshold > -1 && threshold <= 1)) {
      throw new IllegalArgumentException("threshold must be in (-1, 1], got threshold=" + threshold);
    }
  }

  /** Exact copies: texts that repeat an earlier text. */
  public int exactDuplicates() {
    return texts - distinct;
  }

  /**
   * Counts both for {@code texts}, whose embeddings are the rows of {@code embeddings} (in the same
   * order; rows need not be unit length). O(n^2 d).
   *
   * @throws IllegalArgumentException if the counts differ, the threshold is out of range, or a row
   *     has norm 0
   */
  public static Duplicates of(List<String> texts, EmbeddingMatrix embeddings, double threshold) {
    Objects.requireNonNull(texts, "texts");
    Objects.requireNonNull(embeddings, "embeddings");
    if (texts.size() != embeddings.rows()) {
      throw new IllegalArgumentException(
          "texts and embeddings must have one row per text, got texts=" + texts.size() + " rows="
              + embeddings.rows());
    }
    if (!(threshold > -1 && threshold <= 1)) {
      throw new IllegalArgumentException("threshold must be in (-1, 1], got threshold=" + threshold);
    }
    Map<String, Integer> first = new HashMap<>();
    int[] rows = new int[texts.size()];
    int distinct = 0;
    for (int i = 0; i < texts.size(); i++) {
      if (first.putIfAbsent(Objects.requireNonNull(texts.get(i), "texts[" + i + "]"), i) == null) {
        rows[distinct++] = i;
      }
    }
    double[] norm = new double[distinct];
    for (int a = 0; a < distinct; a++) {
      norm[a] = embeddings.rowNorm(rows[a]);
      if (!(norm[a] > 0)) {
        throw new IllegalArgumentException("embeddings row " + rows[a] + " has norm 0: its cosine is undefined");
      }
    }
    boolean[] near = new boolean[distinct];
    for (int a = 0; a < distinct; a++) {
      for (int b = a + 1; b < distinct; b++) {
        if (embeddings.dot(rows[a], embeddings, rows[b]) / (norm[a] * norm[b]) >= threshold) {
          near[a] = true;
          near[b] = true;
        }
      }
    }
    int nearCount = 0;
    for (boolean n : near) {
      nearCount += n ? 1 : 0;
    }
    return new Duplicates(texts.size(), distinct, nearCount, threshold);
  }
}
