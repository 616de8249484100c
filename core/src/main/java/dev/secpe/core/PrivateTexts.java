package dev.secpe.core;

import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretMatch;
import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The only gates through which private text content leaves a {@link PrivateText}: embedding,
 * secret detection and DP fine-tuning of a LOCAL generator. Both check the service's {@link dev.secpe.llm.Locality} against a {@link
 * PrivacyGuard} first, and neither lets a failure carry private text: an exception thrown by the
 * service is replaced by one naming the service and the exception class, without the original
 * message or cause (which may quote the input). A {@link ProviderException.Retryable} stays
 * retryable.
 */
public final class PrivateTexts {

  /** The batch size {@link #embed(TextEmbedder, PrivateDataset, PrivacyGuard)} uses. */
  public static final int DEFAULT_BATCH_SIZE = 64;

  private PrivateTexts() {}

  /**
   * Embeds every record of {@code dataset}, row i being record i.
   *
   * @throws IllegalStateException if the embedder is remote and {@code guard} does not allow it,
   *     or if it returns the wrong number of rows, a wrong dimension or a non-finite value
   */
  public static EmbeddingMatrix embed(
      TextEmbedder embedder, PrivateDataset dataset, PrivacyGuard guard) {
    return embed(embedder, dataset.texts(), guard, DEFAULT_BATCH_SIZE);
  }

  /**
   * Embeds {@code texts} in batches of {@code batchSize}, row i being text i.
   *
   * @throws IllegalStateException if the embedder is remote and {@code guard} does not allow it,
   *     or if it returns the wrong number of rows, a wrong dimension or a non-finite value
   */
  public static EmbeddingMatrix embed(
      TextEmbedder embedder, List<PrivateText> texts, PrivacyGuard guard, int batchSize) {
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(texts, "texts");
    Objects.requireNonNull(guard, "guard");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, got batchSize=" + batchSize);
    }
    guard.checkEmbedder(embedder.name(), embedder.locality());
    List<String> contents = new ArrayList<>(texts.size());
    for (PrivateText t : texts) {
      contents.add(t.reveal());
    }
    return embedStrings(embedder, contents, batchSize, true);
  }

  /**
   * Embeds strings in batches with full checks of the embedder's output. When {@code sanitise},
   * embedder exceptions lose their message and cause (they may quote private text).
   */
  static EmbeddingMatrix embedStrings(
      TextEmbedder embedder, List<String> texts, int batchSize, boolean sanitise) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, got batchSize=" + batchSize);
    }
    int dim = embedder.dimension();
    if (dim < 1) {
      throw new IllegalStateException(
          "embedder '" + embedder.name() + "' reports dimension " + dim + "; expected >= 1");
    }
    float[] flat = new float[Math.multiplyExact(texts.size(), dim)];
    for (int from = 0; from < texts.size(); from += batchSize) {
      int to = Math.min(texts.size(), from + batchSize);
      List<String> batch = List.copyOf(texts.subList(from, to));
      float[][] rows;
      try {
        rows = embedder.embed(batch);
      } catch (RuntimeException e) {
        if (!sanitise) {
          throw e;
        }
        throw sanitised("embedder '" + embedder.name() + "'", e);
      }
      if (rows == null || rows.length != batch.size()) {
        throw new IllegalStateException(
            "embedder '"
                + embedder.name()
                + "' returned "
                + (rows == null ? "null" : rows.length + " rows")
                + " for a batch of "
                + batch.size()
                + " texts");
      }
      for (int k = 0; k < rows.length; k++) {
        float[] r = rows[k];
        if (r == null || r.length != dim) {
          throw new IllegalStateException(
              "embedder '"
                  + embedder.name()
                  + "' returned a vector of dimension "
                  + (r == null ? "null" : r.length)
                  + " for text "
                  + (from + k)
                  + "; it declares dimension "
                  + dim);
        }
        for (int c = 0; c < dim; c++) {
          if (!Float.isFinite(r[c])) {
            throw new IllegalStateException(
                "embedder '"
                    + embedder.name()
                    + "' returned a non-finite value for text "
                    + (from + k)
                    + ", column "
                    + c);
          }
        }
        System.arraycopy(r, 0, flat, (from + k) * dim, dim);
      }
    }
    return EmbeddingMatrix.ofFlat(texts.size(), dim, flat);
  }

  /**
   * Runs {@code detector} on one private text.
   *
   * @throws IllegalStateException if the detector is remote and {@code guard} does not allow it,
   *     or if it fails (the message names the detector, never the text)
   */
  public static List<SecretMatch> detect(
      SecretDetector detector, PrivateText text, PrivacyGuard guard) {
    Objects.requireNonNull(detector, "detector");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(guard, "guard");
    guard.checkSecretDetector(detector.name(), detector.locality());
    String content = text.reveal();
    List<SecretMatch> found;
    try {
      found = detector.detect(content);
    } catch (RuntimeException e) {
      throw sanitised("secret detector '" + detector.name() + "'", e);
    }
    if (found == null) {
      throw new IllegalStateException("secret detector '" + detector.name() + "' returned null");
    }
    for (SecretMatch m : found) {
      if (m.end() > content.length()) {
        throw new IllegalStateException(
            "secret detector '"
                + detector.name()
                + "' returned span ["
                + m.start()
                + ", "
                + m.end()
                + ") outside a text of "
                + content.length()
                + " chars");
      }
    }
    return List.copyOf(found);
  }

  private static RuntimeException sanitised(String who, RuntimeException e) {
    String msg =
        who
            + " failed on private text ("
            + e.getClass().getName()
            + "); its message and cause are withheld because they may quote the text";
    if (e instanceof ProviderException.Retryable) {
      return new ProviderException.Retryable(msg, null);
    }
    if (e instanceof ProviderException.Permanent) {
      return new ProviderException.Permanent(msg, null);
    }
    return new IllegalStateException(msg);
  }

  /**
   * DP fine-tuning (CTCL §3.3): passes each record's text, paired with {@code keywords.get(i)},
   * to a LOCAL {@link FineTunableGenerator} whose contract clips, subsamples and noises it. The
   * caller must have charged the mechanism's cost to its ledger before calling. A failure of the
   * generator is replaced by one that names only the generator and the exception class.
   *
   * @throws IllegalStateException if the generator is not {@link Locality#LOCAL}
   */
  public static TextGenerator fineTune(
      FineTunableGenerator generator,
      PrivateDataset dataset,
      List<List<String>> keywords,
      FineTunableGenerator.DpSgdSettings settings,
      FineTunableGenerator.DpNoise noise) {
    return withExamples(generator, dataset, keywords, examples -> generator.fineTune(examples, settings, noise));
  }

  /**
   * The release of DP fine-tuning ({@link FineTunableGenerator#fineTuningRelease}), under the same
   * rules as {@link #fineTune}: LOCAL generators only, the cost charged by the caller first,
   * failures redacted to the generator's name and the exception class.
   *
   * @throws IllegalStateException if the generator is not {@link Locality#LOCAL}
   */
  public static double[] fineTuningRelease(
      FineTunableGenerator generator,
      PrivateDataset dataset,
      List<List<String>> keywords,
      FineTunableGenerator.DpSgdSettings settings,
      FineTunableGenerator.DpNoise noise) {
    return withExamples(
        generator, dataset, keywords, examples -> generator.fineTuningRelease(examples, settings, noise));
  }

  private static <T> T withExamples(
      FineTunableGenerator generator,
      PrivateDataset dataset,
      List<List<String>> keywords,
      java.util.function.Function<List<FineTunableGenerator.Example>, T> tune) {
    Objects.requireNonNull(generator, "generator");
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(keywords, "keywords");
    if (keywords.size() != dataset.size()) {
      throw new IllegalArgumentException(
          "keywords must have one entry per record, got keywords=" + keywords.size() + " records=" + dataset.size());
    }
    if (generator.locality() != Locality.LOCAL) {
      throw new IllegalStateException(
          "DP fine-tuning sends private text to the generator: '" + generator.name() + "' is "
              + generator.locality() + ", only LOCAL generators may be fine-tuned");
    }
    List<FineTunableGenerator.Example> examples = new ArrayList<>(dataset.size());
    for (int i = 0; i < dataset.size(); i++) {
      examples.add(new FineTunableGenerator.Example(keywords.get(i), dataset.get(i).text().reveal()));
    }
    try {
      return tune.apply(examples);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw e instanceof IllegalArgumentException
          ? new IllegalArgumentException("fine-tuning '" + generator.name() + "' rejected its input: " + safe(e))
          : new IllegalStateException("fine-tuning '" + generator.name() + "' failed: " + safe(e));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "fine-tuning '" + generator.name() + "' failed with " + e.getClass().getName());
    }
  }

  /**
   * Bounds how many records hold any one secret to {@code k}, for SecPE's contribution-bounded
   * calibration ({@code SecPE.Builder.secretCap}). For every secret (a distinct kind and value)
   * held by more than k records, k of its records keep it and in the others each of its
   * occurrences is replaced by {@code "[kind]"}; records, their order, ids and labels are kept.
   *
   * <p>Which k keep it depends only on the records' positions (a hash of {@code seed} and the
   * position, the same for every secret), never on the secret's value or on other secrets. So in
   * a neighbouring dataset, where one secret's occurrences are replaced by the placeholder or by
   * another value, every other secret keeps the same records, and the two capped datasets differ
   * in at most the k records that keep that secret. That is what makes sigma depend on (p, r, k)
   * alone ({@code docs/math-decisions.md} §9).
   *
   * @param k the most records that may hold one secret (>= 1)
   * @param seed the key of the position hash
   * @throws IllegalStateException if the detector is remote and {@code guard} does not allow it
   */
  public static PrivateDataset capSecrets(
      PrivateDataset dataset, SecretDetector detector, PrivacyGuard guard, int k, long seed) {
    Objects.requireNonNull(dataset, "dataset");
    if (k < 1) {
      throw new IllegalArgumentException("secretCap must be >= 1, got secretCap=" + k);
    }
    int n = dataset.size();
    List<List<SecretMatch>> matches = new ArrayList<>(n);
    java.util.Map<List<String>, java.util.TreeSet<Integer>> holders = new java.util.HashMap<>();
    for (int i = 0; i < n; i++) {
      List<SecretMatch> found = detect(detector, dataset.get(i).text(), guard);
      matches.add(found);
      for (SecretMatch m : found) {
        holders.computeIfAbsent(List.of(m.kind(), m.value()), x -> new java.util.TreeSet<>()).add(i);
      }
    }
    long[] rank = new long[n];
    for (int i = 0; i < n; i++) {
      // A function of (seed, position) alone, the same for every secret.
      rank[i] = new java.util.SplittableRandom(seed + 0x9E3779B97F4A7C15L * (i + 1)).nextLong();
    }
    // For each over-held secret, the records that must drop it.
    java.util.Set<List<Object>> drop = new java.util.HashSet<>();
    for (java.util.Map.Entry<List<String>, java.util.TreeSet<Integer>> e : holders.entrySet()) {
      if (e.getValue().size() <= k) {
        continue;
      }
      Integer[] order = e.getValue().toArray(new Integer[0]);
      java.util.Arrays.sort(order, (a, b) -> rank[a] != rank[b] ? Long.compare(rank[a], rank[b]) : Integer.compare(a, b));
      for (int x = k; x < order.length; x++) {
        drop.add(List.of(order[x], e.getKey()));
      }
    }
    if (drop.isEmpty()) {
      return dataset;
    }
    List<PrivateRecord> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      PrivateRecord r = dataset.get(i);
      List<SecretMatch> spans = new ArrayList<>();
      for (SecretMatch m : matches.get(i)) {
        if (drop.contains(List.of(i, List.of(m.kind(), m.value())))) {
          spans.add(m);
        }
      }
      if (spans.isEmpty()) {
        out.add(r);
        continue;
      }
      spans.sort(java.util.Comparator.comparingInt(SecretMatch::start));
      String text = r.text().reveal();
      StringBuilder b = new StringBuilder(text.length());
      int at = 0;
      for (SecretMatch m : spans) {
        if (m.start() < at) {
          // Overlaps a span already replaced: extend it.
          at = Math.max(at, m.end());
          continue;
        }
        b.append(text, at, m.start()).append('[').append(m.kind()).append(']');
        at = m.end();
      }
      b.append(text, at, text.length());
      out.add(new PrivateRecord(r.id(), PrivateText.of(b.toString()), r.label()));
    }
    return PrivateDataset.of(out);
  }

  /** An exception's class only: its message may quote private text. */
  private static String safe(RuntimeException e) {
    return e.getClass().getSimpleName();
  }
}
