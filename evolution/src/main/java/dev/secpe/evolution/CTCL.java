package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.Provenance;
import dev.secpe.core.SyntheticDataset;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.NoiseMode;
import dev.secpe.core.report.Phase;
import dev.secpe.core.report.PhaseTimings;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.core.report.ProviderInfo;
import dev.secpe.core.report.RunEvent;
import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.TextGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * CTCL (Tan et al., "Synthesizing privacy-preserving text data via finetuning without finetuning
 * billion-scale LLMs"): a topic model built on PUBLIC text (§3.2), a DP topic histogram of the
 * private data (§3.3: each record in its nearest topic or the unclassified bin, Gaussian noise
 * of standard deviation {@code histogramSigma} on every bin, sensitivity 1), DP fine-tuning of a
 * local {@link FineTunableGenerator} on (topic keywords, document) pairs (DP-SGD parameters:
 * clip norm C, noise multiplier z, K steps, expected batch B, Poisson rate q = B/N), and
 * generation of the requested size allocated to topics in proportion to the noisy histogram by
 * largest remainder (negative bins count as 0), each topic's texts conditioned on its keywords
 * (§3.4) and aimed at the mean length of the topic's PUBLIC documents.
 *
 * <p>Accounting (Appendix D, E): the histogram (Gaussian, multiplier {@code histogramSigma}) and
 * the fine-tuning ({@link PrivacyCost.SubsampledGaussian}(z, q, K)) are composed by the ledger's
 * PLD accountant; z is the least multiplier (bisection, safe side, relative tolerance 1e-4) with
 * which the composition meets the budget. Both releases are charged before any noise is drawn.
 *
 * <p>Labels: with labelled private data the histogram is over (label, topic) pairs (one record is
 * still in exactly one bin, so the cost is unchanged) and each label's texts are generated with
 * that label; the label proportions are thus released by the same noisy histogram, whatever the
 * {@link dev.secpe.core.LabelSet} kind. Fine-tuning is over all records together.
 */
public final class CTCL extends Runs {

  /** The provenance operator of CTCL's texts. */
  public static final String OPERATOR = "ctcl";

  /**
   * CTCL's immutable configuration.
   *
   * @param settings shared settings (syntheticSize, seed, generation, labels, noise, listener)
   * @param budget the whole run's (epsilon, delta) (null for a non-private baseline)
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
      DpBudget budget,
      int topics,
      int keywordsPerTopic,
      double unclassifiedQuantile,
      double histogramSigma,
      double clipNorm,
      int steps,
      int batchSize,
      double privateWeight) {

    /** Validates eagerly. */
    public Config {
      Objects.requireNonNull(settings, "settings");
      if (!settings.nonPrivate()) {
        Objects.requireNonNull(budget, "budget");
      }
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

  /** The ledger of a run with these parameters (releases in charge order; no noise drawn). */
  static PrivacyLedger ledger(double histogramSigma, double z, double q, int steps) {
    PrivacyLedger l = PrivacyLedger.unlimited();
    if (histogramSigma > 0) {
      l.charge(histogramRelease(histogramSigma));
    }
    l.charge(fineTuningRelease(z, q, steps, 1.0));
    return l;
  }

  static Release histogramRelease(double sigma) {
    return Release.gaussian("ctcl-topic-histogram", "one record: one bin of the (label, topic) histogram", 1.0, sigma);
  }

  static Release fineTuningRelease(double z, double q, int steps, double clip) {
    return new Release(
        "ctcl-dp-finetune",
        "Poisson-subsampled Gaussian (DP-SGD)",
        "one record: its clipped contribution to each step's sum",
        clip,
        z * clip,
        new PrivacyCost.SubsampledGaussian(z, q, steps));
  }

  /**
   * The least z with which the histogram (multiplier {@code histogramSigma}; 0 for none) and K
   * steps of the Poisson-subsampled Gaussian at rate q compose, by the ledger's PLD accountant,
   * to at most {@code budget.epsilon()} at {@code budget.delta()}.
   */
  static Accounting calibrate(DpBudget budget, double histogramSigma, double q, int steps) {
    double eps = budget.epsilon();
    double delta = budget.delta();
    double z =
        SafeBisection.least(
            s -> ledger(histogramSigma, s, q, steps).epsilon(delta),
            eps,
            1e-3,
            () -> "budget unreachable: epsilon=" + eps + " at delta=" + delta + " with the topic histogram"
                + " (sigma=" + histogramSigma + ") leaves no room for " + steps + " fine-tuning steps"
                + " (try a larger epsilon or histogram noise)");
    double hEps = 0;
    if (histogramSigma > 0) {
      PrivacyLedger h = PrivacyLedger.unlimited();
      h.charge(histogramRelease(histogramSigma));
      hEps = h.epsilon(delta);
    }
    PrivacyLedger f = PrivacyLedger.unlimited();
    f.charge(fineTuningRelease(z, q, steps, 1.0));
    return new Accounting(z, q, hEps, f.epsilon(delta), ledger(histogramSigma, z, q, steps).epsilon(delta));
  }

  private final Config config;
  private final Inputs inputs;
  private volatile Accounting accounting;

  private CTCL(Config config, Inputs inputs) {
    this.config = config;
    this.inputs = inputs;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The configuration. */
  public Config config() {
    return config;
  }

  /** The solved accounting, once {@link #run()} has computed it (empty before, and when non-private). */
  public Optional<Accounting> accounting() {
    return Optional.ofNullable(accounting);
  }

  /** Runs CTCL once (single-use). */
  public RunResult run() {
    start();
    EvolutionSettings s = config.settings();
    PrivateDataset data = inputs.privateData();
    FineTunableGenerator generator = (FineTunableGenerator) inputs.generator();
    int n = data.size();
    s.listener().onEvent(new RunEvent.RunStarted(OPERATOR, 1, 0));
    PrivacyLedger ledger = s.nonPrivate() ? PrivacyLedger.unlimited() : PrivacyLedger.withLimit(config.budget());
    double q = (double) config.batchSize() / n;
    if (!s.nonPrivate()) {
      accounting = calibrate(config.budget(), config.histogramSigma(), q, config.steps());
    }

    // 1. Topic model on public text; private records to topics.
    long t0 = System.nanoTime();
    TopicModel topics =
        TopicModel.fit(
            inputs.publicData().texts(), inputs.embedder(), config.topics(), config.keywordsPerTopic(),
            config.unclassifiedQuantile(), s.seed());
    EmbeddingMatrix emb = PrivateTexts.embed(inputs.embedder(), data, s.guard());
    Duration embedding = Duration.ofNanos(System.nanoTime() - t0);
    List<Optional<Label>> groups = new ArrayList<>();
    if (s.labels().isPresent() && !s.labels().get().labels().isEmpty()) {
      s.labels().get().labels().forEach(l -> groups.add(Optional.of(l)));
    } else {
      groups.add(Optional.empty());
    }
    int binsPerGroup = topics.topics() + 1;
    double[] hist = new double[groups.size() * binsPerGroup];
    List<List<String>> keywordsOf = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int t = topics.assign(emb.row(i));
      Optional<Label> label = data.get(i).label();
      int g = groups.size() == 1 ? 0 : groups.indexOf(label);
      if (g < 0) {
        throw new IllegalStateException(
            "private record " + i + " carries a label outside the declared label set");
      }
      hist[g * binsPerGroup + t] += 1;
      keywordsOf.add(topics.keywords(t));
    }

    // 2. DP topic histogram: charged, then noised.
    NoiseSource noise = s.noise();
    if (!s.nonPrivate()) {
      Release r = ledger.charge(histogramRelease(config.histogramSigma()));
      s.listener().onEvent(new RunEvent.ReleaseCharged(r));
      for (int i = 0; i < hist.length; i++) {
        hist[i] += noise.gaussian(config.histogramSigma());
      }
    }

    // 3. DP fine-tuning: charged, then run with the caller's noise.
    long t1 = System.nanoTime();
    FineTunableGenerator.DpSgdSettings dp;
    FineTunableGenerator.DpNoise dpNoise;
    if (s.nonPrivate()) {
      dp = new FineTunableGenerator.DpSgdSettings(config.clipNorm(), 0, 1, n, config.privateWeight());
      dpNoise = new FineTunableGenerator.DpNoise() {
        @Override
        public double gaussian(double sigma) {
          return 0;
        }

        @Override
        public boolean bernoulli(double p) {
          return p > 0;
        }
      };
    } else {
      double z = accounting.noiseMultiplier();
      Release r = ledger.charge(fineTuningRelease(z, q, config.steps(), config.clipNorm()));
      s.listener().onEvent(new RunEvent.ReleaseCharged(r));
      dp = new FineTunableGenerator.DpSgdSettings(config.clipNorm(), z, config.steps(), config.batchSize(), config.privateWeight());
      dpNoise = new FineTunableGenerator.DpNoise() {
        @Override
        public double gaussian(double sigma) {
          return noise.gaussian(sigma);
        }

        @Override
        public boolean bernoulli(double p) {
          return noise.bernoulli(p);
        }
      };
    }
    TextGenerator tuned = PrivateTexts.fineTune(generator, data, keywordsOf, dp, dpNoise);
    Duration selection = Duration.ofNanos(System.nanoTime() - t1);

    // 4. Allocation and keyword-conditioned generation (post-processing).
    long t2 = System.nanoTime();
    int[] share = Allocation.largestRemainder(hist, s.syntheticSize());
    List<SyntheticText> out = new ArrayList<>(s.syntheticSize());
    try {
      List<GenerationRequest> requests = new ArrayList<>();
      List<Optional<Label>> labelOf = new ArrayList<>();
      SplittableRandom promptRng = Seeds.random(s.seed(), "ctcl-prompt", 0);
      int idx = 0;
      for (int b = 0; b < share.length; b++) {
        Optional<Label> label = groups.get(b / binsPerGroup);
        List<String> kws = topics.keywords(b % binsPerGroup);
        int words = topics.targetWords(b % binsPerGroup);
        for (int j = 0; j < share[b]; j++) {
          GenerationTask task = new GenerationTask.Random(label.map(Label::name).orElse(null), kws, words);
          GenerationParams p = s.generation().withSeed(Seeds.derive(s.seed(), "ctcl-generate", idx++));
          requests.add(s.templates().request(task, p, promptRng));
          labelOf.add(label);
        }
      }
      List<GenerationResult> results = tuned.generate(requests);
      for (int i = 0; i < results.size(); i++) {
        out.add(new SyntheticText("ctcl-" + i, results.get(i).text(), labelOf.get(i), new Provenance(0, List.of(), OPERATOR)));
      }
    } finally {
      if (tuned != generator) {
        tuned.close();
      }
    }
    Duration generation = Duration.ofNanos(System.nanoTime() - t2);
    PhaseTimings timings =
        PhaseTimings.ZERO.plus(Phase.EMBEDDING, embedding).plus(Phase.SELECTION, selection).plus(Phase.GENERATION, generation);

    PrivacyReport.Builder b =
        PrivacyReport.builder(OPERATOR)
            .syntheticRecords(out.size())
            .privateRecords(n)
            .mechanisms(ledger.releases())
            .provider(new ProviderInfo("generator", generator.name(), "dev", generator.locality()))
            .provider(new ProviderInfo("embedder", inputs.embedder().name(), "dev", inputs.embedder().locality()))
            .timing(timings);
    if (s.nonPrivate()) {
      b.noise(NoiseMode.NONE)
          .deviation("Non-private baseline: exact topic histogram and noise-free fine-tuning (contributions still clipped, every record used once); nothing is protected.");
    } else {
      double delta = config.budget().delta();
      b.dp(new DpBudget(ledger.epsilon(delta), delta))
          .sigma(accounting.noiseMultiplier())
          .noise(noise.isPrivate() ? NoiseMode.SECURE : NoiseMode.REPRODUCIBLE_NON_PRIVATE)
          .deviation(String.format(java.util.Locale.ROOT,
              "Histogram (Gaussian std %.3g, sensitivity 1) alone: epsilon=%.4f; DP fine-tuning (z=%.4f, q=%.5f, %d steps, C=%.3g) alone: epsilon=%.4f; composed by PLD: epsilon=%.4f at delta=%.3g.",
              config.histogramSigma(), accounting.histogramEpsilon(), accounting.noiseMultiplier(), q,
              config.steps(), config.clipNorm(), accounting.fineTuningEpsilon(), accounting.composedEpsilon(), delta))
          .deviation("Topics: cosine k-means on public embeddings (the paper uses HDBSCAN); unclassified below the public "
              + config.unclassifiedQuantile() + "-quantile of own-centre cosine.");
    }
    s.listener().onEvent(new RunEvent.RunFinished(timings));
    return new RunResult(SyntheticDataset.of(out), b.build());
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

    /** The whole run's (epsilon, delta); both > 0 (delta = 1/(N ln N) is the papers' choice). */
    public Builder budget(DpBudget budget) {
      requireApproximateDp("CTCL", budget);
      this.budget = budget;
      return this;
    }

    /** K, the number of public topics (default 20). */
    public Builder topics(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("topics must be >= 1, got topics=" + k);
      }
      this.topics = k;
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

    /** Public quantile of own-centre cosine below which documents are unclassified (default 0.01). */
    public Builder unclassifiedQuantile(double p) {
      if (!(p >= 0 && p < 1)) {
        throw new IllegalArgumentException("unclassifiedQuantile must be in [0, 1), got unclassifiedQuantile=" + p);
      }
      this.unclassifiedQuantile = p;
      return this;
    }

    /** Noise standard deviation on each histogram bin (default 10, as in the paper). */
    public Builder histogramSigma(double sigma) {
      if (!(sigma > 0) || Double.isInfinite(sigma)) {
        throw new IllegalArgumentException("histogramSigma must be finite and > 0, got histogramSigma=" + sigma);
      }
      this.histogramSigma = sigma;
      return this;
    }

    /** C, the per-document clip norm (default 1.0). */
    public Builder clipNorm(double c) {
      if (!(c > 0) || Double.isInfinite(c)) {
        throw new IllegalArgumentException("clipNorm must be finite and > 0, got clipNorm=" + c);
      }
      this.clipNorm = c;
      return this;
    }

    /** K, fine-tuning steps (default 2,000). */
    public Builder steps(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("steps must be >= 1, got steps=" + k);
      }
      this.steps = k;
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
    java.util.List<String> missingOwn() {
      return budget == null && !nonPrivate ? java.util.List.of("budget (budget(DpBudget) or nonPrivate())") : java.util.List.of();
    }

    /** Validates everything and returns a single-use run. */
    public CTCL build() {
      EvolutionSettings s = settings();
      if (budget != null && s.nonPrivate()) {
        throw new IllegalStateException("a budget and nonPrivate() conflict: a non-private run spends none");
      }
      if (!(generator instanceof FineTunableGenerator)) {
        throw new IllegalStateException(
            "CTCL fine-tunes its generator: '" + generator.name() + "' is not a FineTunableGenerator"
                + " (use the embedded n-gram generator)");
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
      Config c = new Config(s, budget, topics, keywordsPerTopic, unclassifiedQuantile, histogramSigma, clipNorm, steps, b, privateWeight);
      return new CTCL(c, new Inputs(privateData, publicData, generator, embedder));
    }
  }
}
