package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.PublicTexts;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * Evaluates a synthetic dataset against real held-out texts: embeds both with one {@link
 * TextEmbedder} and computes every metric of this package into one {@link EvaluationReport}.
 *
 * <pre>{@code
 * Evaluation evaluation = Evaluation.builder(embedder).build();
 * EvaluationReport report = evaluation.evaluate(syntheticTexts, realTexts);
 * double fid = report.fid();
 * }</pre>
 *
 * <p><b>Evaluation data.</b> The real texts are treated as held-out data of the user: they are
 * embedded by the given embedder and measured here, never logged or put into an exception
 * message. Because they may be as sensitive as the private training data, a {@link
 * Locality#REMOTE} embedder is refused unless {@link Builder#allowRemoteEmbedder(boolean)} says
 * the user accepts sending them to it; embed them locally (e.g. the in-process MiniLM provider)
 * otherwise. The metrics themselves are not differentially private: keep them with the data
 * holder.
 *
 * <p>Immutable and thread-safe (if the embedder is).
 */
public final class Evaluation {

  /** The default embedding batch size. */
  public static final int DEFAULT_BATCH_SIZE = 64;

  private final TextEmbedder embedder;
  private final MauveOptions mauve;
  private final ClassifierOptions classifier;
  private final int neighbours;
  private final int batchSize;
  private final int fidComponents;
  private final double nearDuplicateThreshold;
  private final List<String> publicTexts;
  private final long publicSeed;

  /** The default number of the real set's principal components FID is read in. */
  public static final int DEFAULT_FID_COMPONENTS = 16;

  private Evaluation(Builder b) {
    this.embedder = b.embedder;
    this.mauve = b.mauve;
    this.classifier = b.classifier;
    this.neighbours = b.neighbours;
    this.batchSize = b.batchSize;
    this.fidComponents = b.fidComponents;
    this.nearDuplicateThreshold = b.nearDuplicateThreshold;
    this.publicTexts = b.publicTexts;
    this.publicSeed = b.publicSeed;
  }

  /** A builder using {@code embedder} for both sets. */
  public static Builder builder(TextEmbedder embedder) {
    return new Builder(embedder);
  }

  /**
   * Evaluates unlabelled texts (no downstream accuracy).
   *
   * @throws IllegalArgumentException if a set has fewer texts than the metrics need (k + 1 for
   *     precision/recall, default 4) or a text is null
   */
  public EvaluationReport evaluate(List<String> synthetic, List<String> real) {
    List<String> s = texts(synthetic, "synthetic");
    List<String> r = texts(real, "real");
    return run(s, r, null, null);
  }

  /**
   * Evaluates records; downstream accuracy is computed when every record of both sets has a
   * label (the classifier is trained on the synthetic records and tested on the real ones).
   *
   * @throws IllegalArgumentException if a set is too small, or labels are present on some records
   *     of a set and absent on others (naming the first unlabelled record's id)
   */
  public EvaluationReport evaluateRecords(List<PublicRecord> synthetic, List<PublicRecord> real) {
    Objects.requireNonNull(synthetic, "synthetic");
    Objects.requireNonNull(real, "real");
    List<Label> sl = labels(synthetic, "synthetic");
    List<Label> rl = labels(real, "real");
    List<String> st = new ArrayList<>(synthetic.size());
    synthetic.forEach(p -> st.add(p.text()));
    List<String> rt = new ArrayList<>(real.size());
    real.forEach(p -> rt.add(p.text()));
    boolean labelled = sl != null && rl != null;
    return run(texts(st, "synthetic"), texts(rt, "real"), labelled ? sl : null, labelled ? rl : null);
  }

  private EvaluationReport run(
      List<String> synthetic, List<String> real, List<Label> synthLabels, List<Label> realLabels) {
    int min = neighbours + 1;
    if (synthetic.size() < min || real.size() < min) {
      throw new IllegalArgumentException(
          "each set needs at least " + min + " texts (neighbours + 1), got synthetic="
              + synthetic.size() + " real=" + real.size());
    }
    EmbeddingMatrix s = PublicTexts.embed(embedder, synthetic, batchSize);
    EmbeddingMatrix r = PublicTexts.embed(embedder, real, batchSize);
    return fromEmbeddings(s, r, synthetic, real, synthLabels, realLabels);
  }

  /**
   * Computes every metric from embeddings already made (row i of {@code synthetic} embeds {@code
   * syntheticTexts.get(i)}); the labels may both be null (no downstream accuracy).
   *
   * @throws IllegalArgumentException if counts disagree or only one side has labels
   */
  public EvaluationReport fromEmbeddings(
      EmbeddingMatrix synthetic,
      EmbeddingMatrix real,
      List<String> syntheticTexts,
      List<String> realTexts,
      List<Label> syntheticLabels,
      List<Label> realLabels) {
    Objects.requireNonNull(synthetic, "synthetic");
    Objects.requireNonNull(real, "real");
    if (syntheticTexts.size() != synthetic.rows() || realTexts.size() != real.rows()) {
      throw new IllegalArgumentException(
          "one text per embedding row needed, got syntheticTexts=" + syntheticTexts.size()
              + " rows=" + synthetic.rows() + ", realTexts=" + realTexts.size() + " rows="
              + real.rows());
    }
    if ((syntheticLabels == null) != (realLabels == null)) {
      throw new IllegalArgumentException(
          "labels must be given for both sets or neither, got syntheticLabels="
              + (syntheticLabels == null ? "null" : "present") + " realLabels="
              + (realLabels == null ? "null" : "present"));
    }
    double fid = FrechetDistance.between(real, synthetic);
    PrecisionRecall pr = ManifoldPrecisionRecall.compute(real, synthetic, neighbours);
    MauveResult m = Mauve.compute(real, synthetic, mauve);
    LengthDistance length = LengthDistance.ofTexts(realTexts, syntheticTexts);
    double ssS = SelfSimilarity.meanPairwiseCosine(synthetic);
    double ssR = SelfSimilarity.meanPairwiseCosine(real);
    Optional<DownstreamAccuracy> downstream =
        syntheticLabels == null
            ? Optional.empty()
            : Optional.of(
                DownstreamClassifier.evaluate(synthetic, syntheticLabels, real, realLabels, classifier));
    // At most the requested number, fewer where the real set spans fewer dimensions (n - 1 for n
    // rows, fewer with repeated texts); the report's fidComponents says how many were used.
    PrincipalProjection basis = PrincipalProjection.fitAtMost(real, fidComponents);
    int components = basis.components();
    double fidProjected = basis.frechetDistance(synthetic, real);
    KernelDistance.Estimate kid = KernelDistance.withStandardError(synthetic, real);
    Duplicates dup = Duplicates.of(syntheticTexts, synthetic, nearDuplicateThreshold);
    Optional<EvaluationReport.PublicBaseline> baseline = Optional.empty();
    if (publicTexts != null) {
      List<String> sample = new ArrayList<>(publicTexts);
      Collections.shuffle(sample, new Random(publicSeed));
      sample = sample.subList(0, Math.min(sample.size(), synthetic.rows()));
      EmbeddingMatrix p = PublicTexts.embed(embedder, sample, batchSize);
      baseline = Optional.of(new EvaluationReport.PublicBaseline(
          sample.size(), publicSeed, basis.frechetDistance(p, real), KernelDistance.withStandardError(p, real)));
    }
    return new EvaluationReport(
        synthetic.rows(), real.rows(), embedder.name(), fid, pr, m, length, ssS, ssR, downstream, components,
        fidProjected, kid, dup, baseline);
  }

  private static List<String> texts(List<String> texts, String name) {
    Objects.requireNonNull(texts, name);
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new IllegalArgumentException(name + " text at index " + i + " is null");
      }
    }
    return List.copyOf(texts);
  }

  /** All labels, or null when no record has one; mixed is an error. */
  private static List<Label> labels(List<PublicRecord> records, String name) {
    List<Label> out = new ArrayList<>(records.size());
    String firstMissing = null;
    for (PublicRecord p : records) {
      Objects.requireNonNull(p, name + " record");
      if (p.label().isPresent()) {
        out.add(p.label().get());
      } else if (firstMissing == null) {
        firstMissing = p.id();
      }
    }
    if (out.isEmpty()) {
      return null;
    }
    if (firstMissing != null) {
      throw new IllegalArgumentException(
          name + " records are partly labelled: record '" + firstMissing + "' has no label");
    }
    return out;
  }

  @Override
  public String toString() {
    return "Evaluation[embedder=" + embedder.name() + ", k=" + neighbours + ", " + mauve + ", "
        + classifier + "]";
  }

  /** Builds an {@link Evaluation}; validates each setting when it is set. Reusable. */
  public static final class Builder {
    private final TextEmbedder embedder;
    private MauveOptions mauve = MauveOptions.defaults();
    private ClassifierOptions classifier = ClassifierOptions.defaults();
    private int neighbours = ManifoldPrecisionRecall.DEFAULT_K;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private boolean allowRemote;
    private int fidComponents = DEFAULT_FID_COMPONENTS;
    private double nearDuplicateThreshold = Duplicates.DEFAULT_THRESHOLD;
    private List<String> publicTexts;
    private long publicSeed;

    private Builder(TextEmbedder embedder) {
      this.embedder = Objects.requireNonNull(embedder, "embedder");
    }

    /** MAUVE settings (default {@link MauveOptions#defaults()}). */
    public Builder mauve(MauveOptions options) {
      this.mauve = Objects.requireNonNull(options, "mauve");
      return this;
    }

    /** Classifier settings (default {@link ClassifierOptions#defaults()}). */
    public Builder classifier(ClassifierOptions options) {
      this.classifier = Objects.requireNonNull(options, "classifier");
      return this;
    }

    /** The neighbour rank k of precision/recall (default 3). */
    public Builder neighbours(int k) {
      this.neighbours = Checks.positive(k, "neighbours");
      return this;
    }

    /** Texts per embedder call (default {@value #DEFAULT_BATCH_SIZE}). */
    public Builder batchSize(int batchSize) {
      this.batchSize = Checks.positive(batchSize, "batchSize");
      return this;
    }

    /**
     * How many of the real set's leading principal components {@link
     * EvaluationReport#fidProjected()} is read in (default {@value #DEFAULT_FID_COMPONENTS}; fewer
     * when the real set spans fewer dimensions, as n texts span at most n - 1 and repeated texts
     * fewer: the report states the number used).
     */
    public Builder fidComponents(int components) {
      this.fidComponents = Checks.positive(components, "fidComponents");
      return this;
    }

    /**
     * The cosine similarity from which two distinct synthetic texts count as near-duplicates
     * (default {@value Duplicates#DEFAULT_THRESHOLD}).
     */
    public Builder nearDuplicateThreshold(double threshold) {
      if (!(threshold > -1 && threshold <= 1)) {
        throw new IllegalArgumentException(
            "nearDuplicateThreshold must be in (-1, 1], got nearDuplicateThreshold=" + threshold);
      }
      this.nearDuplicateThreshold = threshold;
      return this;
    }

    /**
     * Public texts to draw the baseline from: a random sample of the synthetic set's size (drawn
     * with {@code seed}) is measured like the synthetic set, so the report says whether the
     * synthetic data beats doing nothing ({@link EvaluationReport#fidGainOverPublic()}).
     */
    public Builder publicBaseline(List<String> texts, long seed) {
      List<String> copy = texts(texts, "publicBaseline");
      if (copy.size() < 3) {
        throw new IllegalArgumentException("publicBaseline needs at least 3 texts, got " + copy.size());
      }
      this.publicTexts = copy;
      this.publicSeed = seed;
      return this;
    }

    /** Whether a {@link Locality#REMOTE} embedder may receive the real texts (default false). */
    public Builder allowRemoteEmbedder(boolean allow) {
      this.allowRemote = allow;
      return this;
    }

    /**
     * The evaluation.
     *
     * @throws IllegalStateException if the embedder is remote and that was not allowed
     */
    public Evaluation build() {
      if (embedder.locality() == Locality.REMOTE && !allowRemote) {
        throw new IllegalStateException(
            "embedder '" + embedder.name() + "' is REMOTE: real evaluation texts would leave this"
                + " machine; use a local embedder or allowRemoteEmbedder(true)");
      }
      return new Evaluation(this);
    }
  }
}
