package dev.secpe.evolution.ctcl;

import dev.secpe.evolution.engine.Keywords;

import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.PublicTexts;
import dev.secpe.core.Words;
import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CTCL's topic model (§3.2, Appendix F), built from PUBLIC text only: public embeddings are
 * clustered by cosine k-means (the paper uses HDBSCAN through BERTopic); each topic is described
 * by its keywords ranked by class-based TF-IDF, {@code tf(t, w) * log(1 + A / f(w))} with {@code
 * tf(t, w)} the count of word w in topic t's documents, {@code f(w)} its count over all topics
 * and A the average number of words per topic (stop words and words of two letters or fewer
 * skipped, as in {@link Keywords}). A document whose cosine to its nearest centre is below a
 * threshold goes to an extra "unclassified" bin (index {@link #topics()}); the threshold is the
 * {@code unclassifiedQuantile}-quantile of the public documents' cosines to their own centres, so
 * about that fraction of public text would be unclassified and no private data is involved.
 */
public final class TopicModel {

  private final double[][] centres;
  private final List<List<String>> keywords;
  private final double threshold;
  private final int[] meanWords;

  private TopicModel(double[][] centres, List<List<String>> keywords, double threshold, int[] meanWords) {
    this.centres = centres;
    this.keywords = keywords;
    this.threshold = threshold;
    this.meanWords = meanWords;
  }

  /** Fits the model on public texts (at least {@code k} of them). */
  public static TopicModel fit(
      List<String> publicTexts, TextEmbedder embedder, int k, int keywordsPerTopic, double unclassifiedQuantile, long seed) {
    if (publicTexts.size() < k) {
      throw new IllegalArgumentException(
          "the topic model needs at least topics public documents, got topics=" + k + " public=" + publicTexts.size());
    }
    EmbeddingMatrix m = PublicTexts.embed(embedder, publicTexts);
    float[][] rows = new float[m.rows()][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = m.row(i);
    }
    KMeansResult r = KMeans.builder().k(k).metric(Metric.COSINE).seed(seed).build().fit(EmbeddingMatrix.of(rows));
    double[][] centres = new double[k][];
    for (int c = 0; c < k; c++) {
      centres[c] = unit(r.centres().row(c));
    }
    int[] assign = r.assignments();
    double[] own = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      own[i] = dot(unit(rows[i]), centres[assign[i]]);
    }
    double threshold = quantile(own, unclassifiedQuantile);
    double[] words = new double[k + 1];
    int[] docs = new int[k + 1];
    for (int i = 0; i < rows.length; i++) {
      int w = Words.count(publicTexts.get(i));
      words[assign[i]] += w;
      docs[assign[i]]++;
      words[k] += w;
      docs[k]++;
    }
    int[] meanWords = new int[k + 1];
    for (int c = 0; c <= k; c++) {
      meanWords[c] = docs[c] == 0 ? Math.max(1, (int) Math.round(words[k] / docs[k])) : Math.max(1, (int) Math.round(words[c] / docs[c]));
    }
    return new TopicModel(centres, cTfIdf(publicTexts, assign, k, keywordsPerTopic), threshold, meanWords);
  }

  /** The keywords of each topic by class-based TF-IDF, best first (ties by the word). */
  public static List<List<String>> cTfIdf(List<String> texts, int[] topicOf, int k, int n) {
    List<Map<String, Integer>> tf = new ArrayList<>();
    for (int c = 0; c < k; c++) {
      tf.add(new HashMap<>());
    }
    Map<String, Integer> total = new HashMap<>();
    long words = 0;
    for (int i = 0; i < texts.size(); i++) {
      for (String w : Words.of(texts.get(i))) {
        if (Keywords.isCandidate(w)) {
          tf.get(topicOf[i]).merge(w, 1, Integer::sum);
          total.merge(w, 1, Integer::sum);
          words++;
        }
      }
    }
    double a = (double) words / k;
    List<List<String>> out = new ArrayList<>(k);
    for (int c = 0; c < k; c++) {
      out.add(
          tf.get(c).entrySet().stream()
              .sorted(
                  Comparator.<Map.Entry<String, Integer>>comparingDouble(
                          e -> -e.getValue() * Math.log1p(a / total.get(e.getKey())))
                      .thenComparing(Map.Entry::getKey))
              .limit(n)
              .map(Map.Entry::getKey)
              .toList());
    }
    return List.copyOf(out);
  }

  /** The number of topics K (the unclassified bin is index K). */
  public int topics() {
    return centres.length;
  }

  /** The keywords of topic t, or none for the unclassified bin. */
  public List<String> keywords(int t) {
    return t == centres.length ? List.of() : keywords.get(t);
  }

  /**
   * The mean word count of topic t's public documents (of all public documents for the
   * unclassified bin and empty topics): the length generation aims at.
   */
  public int targetWords(int t) {
    return meanWords[t];
  }

  /** The cosine below which a document is unclassified. */
  public double threshold() {
    return threshold;
  }

  /** The nearest topic of an embedding, or {@link #topics()} if it is below the threshold. */
  public int assign(float[] row) {
    double[] u = unit(row);
    int best = 0;
    double bestSim = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < centres.length; c++) {
      double s = dot(u, centres[c]);
      if (s > bestSim) {
        bestSim = s;
        best = c;
      }
    }
    return bestSim < threshold ? centres.length : best;
  }

  /** The lower empirical quantile (order statistic floor(p (n - 1))); p = 0 gives the minimum. */
  public static double quantile(double[] values, double p) {
    double[] s = values.clone();
    Arrays.sort(s);
    return s[(int) Math.floor(p * (s.length - 1))];
  }

  private static double[] unit(float[] v) {
    double n = 0;
    for (float x : v) {
      n += (double) x * x;
    }
    n = Math.sqrt(n);
    double[] u = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      u[i] = n > 0 ? v[i] / n : 0;
    }
    return u;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
