package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PlanCalibrator;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.evolution.ctcl.CTCLMethod;
import dev.secpe.evolution.ctcl.CTCLOptions;
import dev.secpe.evolution.ctcl.CTCLPlan;
import dev.secpe.evolution.ctcl.FineTuningNoise;
import dev.secpe.evolution.engine.Inputs;
import dev.secpe.evolution.engine.Method;
import dev.secpe.llm.FineTunableGenerator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * CTCL (Tan et al., "Synthesizing privacy-preserving text data via finetuning without finetuning
 * billion-scale LLMs"): a topic model built on PUBLIC text (§3.2), a DP topic histogram of the
 * private data (§3.3: each record in its nearest topic or the unclassified bin, Gaussian noise
 * of standard deviation {@code histogramSigma} on every bin, sensitivity 1), DP fine-tuning of a
 * local {@link FineTunableGenerator} on (topic keywords, document) pairs (DP-SGD parameters:
 * clip norm C, noise multiplier z, K steps, expected batch B, Poisson rate q = B/N), and
 * generation of the requested size allocated to topics in proportion to the noisy histogram,
 * pulled towards the public records' topic histogram by the James-Stein factor for its known noise
 * (post-processing; a deviation from the paper, which allocates by the noisy histogram alone), by
 * largest remainder (negative bins count as 0), each topic's texts conditioned on its keywords
 * (§3.4) and aimed at the mean length of the topic's PUBLIC documents.
 *
 * <p>Accounting (Appendix D, E): the histogram (Gaussian, multiplier {@code histogramSigma}) and
 * the fine-tuning ({@link PrivacyCost.SubsampledGaussian}(z, q, K)) are composed by the ledger's
 * PLD accountant; z is the least multiplier ({@link PlanCalibrator}, safe side, relative tolerance
 * 1e-4) with which the composition meets the budget, solved at {@code build()} (an unreachable
 * budget is refused there, before any private record is read). Both releases are charged to a
 * ledger limited to the budget before any noise is drawn.
 *
 * <p>Runs go through the same engine as the evolution methods: with {@code checkpoint(dir)} the
 * noisy histogram and the fine-tuning's release ({@link FineTunableGenerator#fineTuningRelease})
 * are checkpointed as soon as they are drawn, and so is the generated dataset; {@code
 * resume(true)} serves them from the checkpoint and rebuilds the fine-tuned generator without
 * drawing any noise. Settings CTCL does not use (iterations, variations, mask probability, vote
 * geometry) are refused at {@code build()}.
 *
 * <p>Labels: with labelled private data the histogram is over (label, topic) pairs (one record is
 * still in exactly one bin, so the cost is unchanged) and each label's texts are generated with
 * that label; the label proportions are thus released by the same noisy histogram, whatever the
 * {@link dev.secpe.core.LabelSet} kind. Fine-tuning is over all records together.
 */
public final class CTCL extends Runs<CTCL.Config> {

  /**
   * The smallest histogram noise accepted: below it the Gaussian's privacy loss is not
   * representable (1e-300 underflowed to a noise of 0) and no budget could pay for it anyway.
   */
  public static final double MIN_HISTOGRAM_SIGMA = 1e-3;

  /** The largest histogram noise accepted. */
  public static final double MAX_HISTOGRAM_SIGMA = 1e9;

  /** The smallest clip norm accepted. */
  public static final double MIN_CLIP_NORM = 1e-6;

  /** The largest clip norm accepted. */
  public static final double MAX_CLIP_NORM = 1e6;

  /** The provenance operator of CTCL's texts. */
  public static final String OPERATOR = CTCLMethod.OPERATOR;

  /**
   * CTCL's immutable configuration.
   *
   * @param settings shared settings (syntheticSize, seed, generation, labels, noise, listener)
   * @param budget the whole run's (epsilon, delta): null exactly when {@code settings.privacy()} is
   *     {@link PrivacyMode.NonPrivate}
   * @param topics K, public k-means topics (the unclassified bin is one more)
   * @param keywordsPerTopic keywords per topic (paper: 10)
   * @param unclassifiedQuantile public quantile of own-centre cosine below which a document is
   *     unclassified (in [0, 1): 0 puts only documents less similar than every public one there)
   * @param histogramSigma noise standard deviation on each histogram bin (paper: 10)
   * @param clipNorm C (paper: 1.0)
   * @param steps K (paper: 2,000)
   * @param batchSize B, the expected batch (paper: 4,096; at most N)
   * @param privateWeight the generator's weight of the private statistics (see its fineTune)
   */
  public record Config(
      EvolutionSettings settings,
      @Nullable DpBudget budget,
      int topics,
      int keywordsPerTopic,
      double unclassifiedQuantile,
      double histogramSigma,
      double clipNorm,
      int steps,
      int batchSize,
      double privateWeight) implements RunConfig {

    /** Validates eagerly. */
    public Config {
      RunConfig.requireBudgetMatches(settings, "budget", budget);
      if (topics < 1 || keywordsPerTopic < 1 || steps < 1 || batchSize < 1) {
        throw new IllegalArgumentException(
            "topics, keywordsPerTopic, steps and batchSize must be >= 1, got topics=" + topics
                + " keywordsPerTopic=" + keywordsPerTopic + " steps=" + steps + " batchSize=" + batchSize);
      }
      if (!(unclassifiedQuantile >= 0 && unclassifiedQuantile < 1)) {
        throw new IllegalArgumentException(
            "unclassifiedQuantile must be in [0, 1), got unclassifiedQuantile=" + unclassifiedQuantile);
      }
      for (double[] v : new double[][] {{histogramSigma}, {clipNorm}, {privateWeight}}) {
        if (!(v[0] > 0) || Double.isInfinite(v[0])) {
          throw new IllegalArgumentException(
              "histogramSigma, clipNorm and privateWeight must be finite and > 0, got histogramSigma="
                  + histogramSigma + " clipNorm=" + clipNorm + " privateWeight=" + privateWeight);
        }
      }
    }
  }

  /**
   * The solved fine-tuning noise and what each part costs at the run's delta.
   *
   * @param noiseMultiplier z
   * @param samplingRate q = B / N
   * @param histogramEpsilon epsilon of the histogram alone
   * @param fineTuningEpsilon epsilon of the fine-tuning alone
   * @param composedEpsilon epsilon of both (PLD composition), at most the budget's
   */
  public record Accounting(
      double noiseMultiplier, double samplingRate, double histogramEpsilon, double fineTuningEpsilon, double composedEpsilon) {}

  private final FineTuningNoise accounting; // null for a non-private run

  private CTCL(Config config, Inputs inputs, FineTuningNoise accounting) {
    super(config, inputs, CTCLPlan.of(options(config), accounting));
    this.accounting = accounting;
  }

  /**
   * What CTCL's steps read of {@code c}: plain values, so that the steps never import this class.
   */
  static CTCLOptions options(Config c) {
    return new CTCLOptions(
        c.settings(), c.budget(), c.topics(), c.keywordsPerTopic(), c.unclassifiedQuantile(), c.histogramSigma(),
        c.clipNorm(), c.steps(), c.batchSize(), c.privateWeight());
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The solved accounting (solved at {@code build()}; empty for a non-private run). */
  public Optional<Accounting> accounting() {
    return Optional.ofNullable(accounting).map(CTCL::accountingOf);
  }

  /**
   * The accounting {@code build()} solves, for given values: the least noise multiplier z with
   * which the topic histogram (multiplier {@code histogramSigma}; 0 for none) and {@code steps}
   * steps of the Poisson-subsampled Gaussian at rate {@code samplingRate} (B / N) compose, by the
   * ledger's PLD accountant, to at most {@code budget.epsilon()} at {@code budget.delta()}.
   *
   * @throws IllegalArgumentException if the budget cannot be met or a value is out of range
   */
  public static Accounting calibrate(DpBudget budget, double histogramSigma, double samplingRate, int steps) {
    return accountingOf(CTCLPlan.calibrate(budget, histogramSigma, samplingRate, steps));
  }

  private static Accounting accountingOf(FineTuningNoise a) {
    return new Accounting(a.noiseMultiplier(), a.samplingRate(), a.histogramEpsilon(), a.fineTuningEpsilon(), a.composedEpsilon());
  }

  @Override
  Method newMethod() {
    return new CTCLMethod(options(config()), privacyPlan(), accounting, (FineTunableGenerator) inputs.generator());
  }


  @Override
  String describe() {
    Config config = config();
    return String.format(Locale.ROOT,
        "topics=%d, keywords=%d, unclassified=%s, histogramSigma=%s, clip=%s, steps=%d, batch=%d, weight=%s, z=%s, generator=%s",
        config.topics(), config.keywordsPerTopic(), config.unclassifiedQuantile(), config.histogramSigma(),
        config.clipNorm(), config.steps(), config.batchSize(), config.privateWeight(),
        accounting == null ? "none" : accounting.noiseMultiplier(), inputs.generator().name());
  }

  /** Builds {@link CTCL} runs. */
  public static final class Builder extends EvolutionBuilder<Builder> {
    private DpBudget budget;
    private int topics = 20;
    private int keywordsPerTopic = 10;
    private double unclassifiedQuantile = 0.01;
    private double histogramSigma = 10;
    private double clipNorm = 1.0;
    private int steps = 2000;
    private Integer batchSize;
    private double privateWeight = 1.0;

    Builder() {}

    @Override
    Builder self() {
      return this;
    }

    @Override
    long candidatesPerSurvivor() {
      return 1; // one generation of syntheticSize texts
    }

    /** The whole run's (epsilon, delta); both > 0 (delta = 1/(N ln N) is the papers' choice). */
    public Builder budget(DpBudget budget) {
      requireApproximateDp("CTCL", budget);
      this.budget = budget;
      return this;
    }

    /** K, the number of public topics (default 20; at most {@link SizeLimits#MAX_TOPICS}). */
    public Builder topics(int k) {
      this.topics = SizeLimits.check("topics", k, SizeLimits.MAX_TOPICS);
      return this;
    }

    /** Keywords per topic (default 10, as in the paper). */
    public Builder keywordsPerTopic(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("keywordsPerTopic must be >= 1, got keywordsPerTopic=" + n);
      }
      this.keywordsPerTopic = n;
      return this;
    }

    /**
     * Public quantile of own-centre cosine below which documents are unclassified (default 0.01).
     */
    public Builder unclassifiedQuantile(double p) {
      if (!(p >= 0 && p < 1)) {
        throw new IllegalArgumentException("unclassifiedQuantile must be in [0, 1), got unclassifiedQuantile=" + p);
      }
      this.unclassifiedQuantile = p;
      return this;
    }

    /**
     * Noise standard deviation on each histogram bin (default 10, as in the paper), in [{@link
     * #MIN_HISTOGRAM_SIGMA}, {@link #MAX_HISTOGRAM_SIGMA}].
     */
    public Builder histogramSigma(double sigma) {
      if (!(sigma >= MIN_HISTOGRAM_SIGMA && sigma <= MAX_HISTOGRAM_SIGMA)) {
        throw new IllegalArgumentException("histogramSigma must be in [" + MIN_HISTOGRAM_SIGMA + ", " + MAX_HISTOGRAM_SIGMA
            + "], got histogramSigma=" + sigma);
      }
      this.histogramSigma = sigma;
      return this;
    }

    /**
     * C, the per-document clip norm (default 1.0), in [{@link #MIN_CLIP_NORM}, {@link
     * #MAX_CLIP_NORM}]: C scales the sensitivity and the noise alike, so these bounds only keep the
     * noise finite (1e308 made it infinite).
     */
    public Builder clipNorm(double c) {
      if (!(c >= MIN_CLIP_NORM && c <= MAX_CLIP_NORM)) {
        throw new IllegalArgumentException("clipNorm must be in [" + MIN_CLIP_NORM + ", " + MAX_CLIP_NORM + "], got clipNorm=" + c);
      }
      this.clipNorm = c;
      return this;
    }

    /** K, fine-tuning steps (default 2,000; at most {@link SizeLimits#MAX_STEPS}). */
    public Builder steps(int k) {
      this.steps = SizeLimits.check("steps", k, SizeLimits.MAX_STEPS);
      return this;
    }

    /** B, the expected batch (default min(4096, N / 4), at least 1). */
    public Builder batchSize(int b) {
      if (b < 1) {
        throw new IllegalArgumentException("batchSize must be >= 1, got batchSize=" + b);
      }
      this.batchSize = b;
      return this;
    }

    /** Weight of the private statistics in the fine-tuned generator (default 1). */
    public Builder privateWeight(double w) {
      if (!(w > 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("privateWeight must be finite and > 0, got privateWeight=" + w);
      }
      this.privateWeight = w;
      return this;
    }

    @Override
    List<String> missingOwn() {
      return budgetMissing(budget, "budget(DpBudget)");
    }

    /**
     * Validates everything, solves the fine-tuning noise against the budget (refused here if it
     * cannot be met) and returns a single-use run.
     */
    public CTCL build() {
      EvolutionSettings s = settings();
      requireInMemory("CTCL", "its DP fine-tuning trains on their text");
      refuseUnused(
          "CTCL", "it fine-tunes and generates once, without vote rounds",
          "iterations", "variations", "maskProbability", "voteGeometry");
      refuseBudgetWhenNonPrivate(budget);
      if (!(generator instanceof FineTunableGenerator f)) {
        throw new IllegalStateException(
            "CTCL fine-tunes its generator: '" + generator.name() + "' is not a FineTunableGenerator"
                + " (use the embedded n-gram generator)");
      }
      if (s.checkpointDir().isPresent() && !f.releasesFineTuning()) {
        throw new IllegalStateException(
            "a CTCL checkpoint stores the fine-tuning's release, and generator '" + generator.name()
                + "' does not expose it (FineTunableGenerator.releasesFineTuning() is false): run"
                + " without checkpoint(dir), or use a generator that does");
      }
      if (publicData == null || publicData.size() < topics) {
        throw new IllegalStateException(
            "CTCL builds its topic model on public data: need at least topics=" + topics
                + " public documents, got " + (publicData == null ? 0 : publicData.size()));
      }
      int n = privateData.size();
      // The dataset size N is treated as public, as in the papers (delta = 1/(N ln N), q = B/N).
      int b = batchSize == null ? Math.max(1, Math.min(4096, n / 4)) : batchSize;
      if (b > n) {
        throw new IllegalStateException("batchSize must not exceed the private records, got batchSize=" + b + " N=" + n);
      }
      Config c =
          new Config(s.oneRound(), budget, topics, keywordsPerTopic, unclassifiedQuantile, histogramSigma, clipNorm, steps, b, privateWeight);
      FineTuningNoise a = s.privacy() instanceof PrivacyMode.NonPrivate ? null : CTCLPlan.calibrate(budget, histogramSigma, (double) b / n, steps);
      return new CTCL(c, new Inputs(privateData, publicData, generator, embedder), a);
    }
  }
}
