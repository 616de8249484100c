package dev.secpe.llm.embedded;

import dev.secpe.llm.FineTunableGenerator.DpNoise;
import dev.secpe.llm.FineTunableGenerator.DpSgdSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * DP fine-tuning of n-gram counts (CTCL §3.3 for an n-gram model), restricted to the PUBLIC
 * model's support S (its highest-order n-grams; an n-gram only private documents contain is
 * never counted, so it is never revealed).
 *
 * <p>For a document d let {@code v_d} be its vector of highest-order n-gram counts on S (an
 * n-gram repeated in d counts more than once) and {@code c_d = v_d * min(1, C / ||v_d||_2)} its
 * clipped contribution, so {@code ||c_d||_2 <= C}. Step k Poisson-samples each document with
 * probability q and forms {@code g_k = sum_{d in batch_k} c_d + N(0, (zC)^2 I_S)}.
 *
 * <p><b>Sensitivity.</b> Adding or removing one document d* changes the noiseless sum of a step
 * by {@code c_{d*}} if d* is sampled and by nothing otherwise: every other document's clipped
 * vector depends on that document alone. Hence the L2 sensitivity of each step's sum is at most
 * C, the step is a Gaussian mechanism with noise multiplier z on a Poisson subsample of rate q,
 * and K steps compose as {@code PrivacyCost.SubsampledGaussian(z, q, K)}. The released statistic
 * is {@code G = sum_k g_k}; since no intermediate {@code g_k} is released, the K independent
 * noise vectors are drawn as their sum, one {@code N(0, K (zC)^2)} per coordinate: the same
 * distribution of G. The fine-tuned counts {@code public + round(lambda * max(0, G / (qK)))}
 * ({@code G / (qK)} estimates the clipped counts of the whole private set) are post-processing.
 */
final class DpFineTuning {

  private DpFineTuning() {}

  /** The sorted public support and an index from key to position + 1 (0: not in the support). */
  record Support(long[] keys, LongIntMap index) {
    static Support of(NgramCounts publicCounts) {
      long[] keys = publicCounts.counts.sortedKeys();
      LongIntMap index = new LongIntMap(Math.max(4, keys.length));
      for (int i = 0; i < keys.length; i++) {
        index.put(keys[i], i + 1);
      }
      return new Support(keys, index);
    }

    int size() {
      return keys.length;
    }
  }

  /** A sparse clipped contribution: positions in the support and values. */
  record Contribution(int[] positions, double[] values) {
    double norm() {
      double s = 0;
      for (double v : values) {
        s += v * v;
      }
      return Math.sqrt(s);
    }
  }

  /** One document's contribution on the support, clipped to L2 norm {@code clip}. */
  static Contribution clipped(String document, Vocabulary vocabulary, int order, Support support, double clip) {
    int[] ids = vocabulary.ids(WordTokenizer.tokenize(document));
    long[] grams = NgramCounts.documentContribution(ids, order);
    LongIntMap counts = new LongIntMap(Math.max(4, grams.length));
    for (long g : grams) {
      int pos = support.index().get(g);
      if (pos > 0) {
        counts.add(pos - 1, 1);
      }
    }
    int n = counts.size();
    int[] positions = new int[n];
    double[] values = new double[n];
    long[] keys = counts.sortedKeys();
    double sq = 0;
    for (int i = 0; i < n; i++) {
      positions[i] = (int) keys[i];
      values[i] = counts.get(keys[i]);
      sq += values[i] * values[i];
    }
    double norm = Math.sqrt(sq);
    if (norm > clip) {
      double f = clip / norm;
      for (int i = 0; i < n; i++) {
        values[i] *= f;
      }
    }
    return new Contribution(positions, values);
  }

  /**
   * The noiseless sum of clipped contributions with multiplicities (how many of the K steps
   * sampled each document); with all multiplicities 1 it is one step's sum over a batch.
   */
  static double[] clippedSum(List<Contribution> contributions, int[] times, int supportSize) {
    double[] sum = new double[supportSize];
    for (int d = 0; d < contributions.size(); d++) {
      if (times[d] == 0) {
        continue;
      }
      Contribution c = contributions.get(d);
      for (int i = 0; i < c.positions().length; i++) {
        sum[c.positions()[i]] += times[d] * c.values()[i];
      }
    }
    return sum;
  }

  /** Runs the K steps and returns the public counts plus the post-processed private estimate. */
  static NgramCounts fineTune(
      NgramCounts publicCounts, Vocabulary vocabulary, List<String> documents, DpSgdSettings s, DpNoise noise) {
    return tuned(publicCounts, noisySum(publicCounts, vocabulary, documents, s, noise), s, documents.size());
  }

  /**
   * The release: {@code G = sum_k g_k}, the noisy sum over the K steps of the sampled documents'
   * clipped contributions, one value per n-gram of the public support (in its sorted order).
   */
  static double[] noisySum(
      NgramCounts publicCounts, Vocabulary vocabulary, List<String> documents, DpSgdSettings s, DpNoise noise) {
    int n = documents.size();
    double q = s.samplingRate(n);
    int order = publicCounts.order;
    Support support = Support.of(publicCounts);
    ArrayList<Contribution> contributions = new ArrayList<>(n);
    for (String d : documents) {
      contributions.add(clipped(d, vocabulary, order, support, s.clipNorm()));
    }
    int[] times = new int[n];
    for (int k = 0; k < s.steps(); k++) {
      for (int d = 0; d < n; d++) {
        if (noise.bernoulli(q)) {
          times[d]++;
        }
      }
    }
    double[] g = clippedSum(contributions, times, support.size());
    if (s.noiseMultiplier() > 0) {
      double sigma = s.noiseMultiplier() * s.clipNorm() * Math.sqrt(s.steps());
      for (int i = 0; i < g.length; i++) {
        g[i] += noise.gaussian(sigma);
      }
    }
    return g;
  }

  /**
   * Post-processing of the release {@code g} of {@link #noisySum} over {@code n} documents: the
   * public counts plus {@code round(lambda * max(0, G / (qK)))} on the support.
   *
   * @throws IllegalArgumentException if g does not have one finite value per support n-gram
   */
  static NgramCounts tuned(NgramCounts publicCounts, double[] g, DpSgdSettings s, int n) {
    double q = s.samplingRate(n);
    long[] keys = publicCounts.counts.sortedKeys();
    if (g.length != keys.length) {
      throw new IllegalArgumentException(
          "fine-tuning release must have one value per public n-gram, got length=" + g.length
              + " expected=" + keys.length);
    }
    for (int i = 0; i < g.length; i++) {
      if (!Double.isFinite(g[i])) {
        throw new IllegalArgumentException("fine-tuning release value " + i + " is not finite, got " + g[i]);
      }
    }
    double scale = s.privateWeight() / (q * s.steps());
    NgramCounts out = new NgramCounts(publicCounts.order);
    out.setDocuments(publicCounts.documents());
    for (int i = 0; i < keys.length; i++) {
      long extra = Math.round(scale * Math.max(0.0, g[i]));
      long total = publicCounts.counts.get(keys[i]) + extra;
      out.addCount(keys[i], (int) Math.min(Integer.MAX_VALUE, total));
    }
    return out;
  }
}
