package dev.secpe.core;

import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretMatch;
import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.Function;

/**
 * The only gates through which private text content leaves a {@link PrivateText}: embedding,
 * secret detection and DP fine-tuning of a LOCAL generator. Each checks the service's {@link
 * Locality} against a {@link PrivacyGuard} first, and none lets a failure carry private text: an
 * exception thrown by the service is replaced by one naming the service and the exception class,
 * whose cause is a {@link RedactedException} with the original's class and stack trace (and its
 * causes', likewise) but no message, since a message may quote the input. A {@link
 * ProviderException.Retryable} stays retryable, a {@link ProviderException.Permanent} permanent.
 */
public final class PrivateTexts {

  /**
   * How far from 1 the L2 norm of a vector may be when its embedder says {@link
   * TextEmbedder#normalized()} (float rounding over a few thousand dimensions stays far below).
   */
  public static final double UNIT_NORM_TOLERANCE = 1e-3;

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
   * Embeds strings in batches with full checks of the embedder's output (row count, dimension,
   * finite values, unit norm when claimed). When {@code sanitise}, embedder exceptions lose their
   * messages (they may quote private text) but keep their class and stack trace.
   */
  static EmbeddingMatrix embedStrings(
      TextEmbedder embedder, List<String> texts, int batchSize, boolean sanitise) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, got batchSize=" + batchSize);
    }
    int dim = embedder.dimension();
    boolean unit = embedder.normalized();
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
        double sq = 0;
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
          sq += (double) r[c] * r[c];
        }
        if (unit && !(Math.abs(Math.sqrt(sq) - 1) <= UNIT_NORM_TOLERANCE)) {
          throw ProviderFault.notUnitNorm(embedder.name(), from + k, UNIT_NORM_TOLERANCE);
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
    if (e instanceof ProviderFault f) {
      return f; // built from names and counts only: safe to show, and the user needs it
    }
    if (e instanceof CancellationException) {
      return new CancellationException("run cancelled while " + who + " was working on private text");
    }
    String msg =
        who
            + " failed on private text ("
            + e.getClass().getName()
            + "); its message is withheld because it may quote the text (the cause keeps its class"
            + " and stack trace)";
    RedactedException cause = RedactedException.of(e);
    if (e instanceof ProviderException.Retryable) {
      return new ProviderException.Retryable(msg, cause);
    }
    if (e instanceof ProviderException.Permanent) {
      return new ProviderException.Permanent(msg, cause);
    }
    return new IllegalStateException(msg, cause);
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
      Function<List<FineTunableGenerator.Example>, T> tune) {
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
          ? new IllegalArgumentException(
              "fine-tuning '" + generator.name() + "' rejected its input: " + safe(e), RedactedException.of(e))
          : new IllegalStateException("fine-tuning '" + generator.name() + "' failed: " + safe(e), RedactedException.of(e));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "fine-tuning '" + generator.name() + "' failed with " + e.getClass().getName(), RedactedException.of(e));
    }
  }

  /**
   * A keyed SHA-256 of each record's text and label, truncated to 64 bits: a function of the
   * record alone (not of its position or of other records), for choices that must not change
   * when other records are removed, such as which records of a secret SecPE's secret cap keeps.
   * The keys are not readable text but are derived from private data: keep them with it.
   */
  public static long[] recordKeys(PrivateDataset dataset, long key) {
    Objects.requireNonNull(dataset, "dataset");
    long[] out = new long[dataset.size()];
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = recordKey(md, dataset.get(i), key);
    }
    return out;
  }

  /** {@link #recordKeys} of one record: the same value wherever the record is hashed. */
  public static long recordKey(PrivateRecord record, long key) {
    Objects.requireNonNull(record, "record");
    try {
      return recordKey(MessageDigest.getInstance("SHA-256"), record, key);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static long recordKey(MessageDigest md, PrivateRecord r, long key) {
    md.reset();
    md.update(ByteBuffer.allocate(8).putLong(key).array());
    md.update(r.text().reveal().getBytes(StandardCharsets.UTF_8));
    md.update((byte) 0);
    md.update(r.label().map(Label::name).orElse("").getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.wrap(md.digest()).getLong();
  }

  /** An exception's class only: its message may quote private text. */
  private static String safe(RuntimeException e) {
    return e.getClass().getSimpleName();
  }
}
