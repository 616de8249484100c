package dev.secpe.evolution.ctcl;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.evolution.engine.Allocation;
import dev.secpe.evolution.engine.ApproximateDpMethod;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * CTCL's steps for the {@link Engine}: in {@link #prepare}, the public topic model, the DP topic
 * histogram and the DP fine-tuning, both through the {@link ReleaseStore} (charged before drawn,
 * checkpointed once drawn, served from the checkpoint on resume); the initial population is the
 * keyword-conditioned generation by the fine-tuned generator, and it is the output (no votes).
 *
 * <p>The fine-tuning's release is the generator's noisy statistic ({@link
 * FineTunableGenerator#fineTuningRelease}); the fine-tuned generator is rebuilt from it, so a
 * resumed run never fine-tunes again with fresh noise.
 */
public final class CTCLMethod implements ApproximateDpMethod {


  /** The provenance operator of CTCL's texts ({@code CTCL.OPERATOR}). */
  public static final String OPERATOR = "ctcl";

  private final CTCLOptions config;
  private final PrivacyPlan plan;
  private final FineTuningNoise accounting; // null for a non-private run
  private final FineTunableGenerator base;
  private TopicModel topics;
  private double[] histogram;
  private TextGenerator tuned;

  /**
   * A run of {@code config} following {@code plan} ({@link CTCLPlan#of}), fine-tuning {@code base}.
   */
  public CTCLMethod(CTCLOptions config, PrivacyPlan plan, FineTuningNoise accounting, FineTunableGenerator base) {
    this.config = config;
    this.plan = plan;
    this.accounting = accounting;
    this.base = base;
  }

  @Override
  public String name() {
    return OPERATOR;
  }

  @Override
  public PrivacyPlan plan() {
    return plan;
  }

  /** The topic model is fitted on the public embeddings: embedded first, timed as embedding. */
  @Override
  public boolean needsPublicEmbeddings() {
    return true;
  }

  @Override
  public boolean evolves() {
    return false;
  }

  @Override
  public TextGenerator generator(TextGenerator given) {
    if (tuned == null) {
      throw new IllegalStateException("CTCL's generator is fine-tuned in prepare(), which has not run");
    }
    return tuned;
  }

  @Override
  public void prepare(RunContext ctx) {
    EvolutionSettings s = ctx.settings();
    // 1. Topic model on public text; each private record to its topic (or the unclassified bin).
    topics =
        TopicModel.fit(
            ctx.publicData().texts(), ctx.embedder(), config.topics(), config.keywordsPerTopic(),
            config.unclassifiedQuantile(), s.seed());
    EmbeddingMatrix emb = ctx.privateUnit();
    int n = ctx.privateData().size();
    int bins = topics.topics() + 1;
    long[] counts = new long[ctx.groups() * bins];
    List<List<String>> keywordsOf = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int t = topics.assign(emb.row(i));
      counts[ctx.privateGroup(i) * bins + t]++;
      keywordsOf.add(topics.keywords(t));
    }

    // 2. The DP (label, topic) histogram: one record is in one bin, sensitivity 1.
    double sigma = config.histogramSigma();
    histogram =
        ctx.store().release(
            CTCLPlan.HISTOGRAM,
            () -> {
              double[] h = new double[counts.length];
              for (int i = 0; i < h.length; i++) {
                h[i] = counts[i] + ctx.noise().gaussian(sigma);
              }
              return h;
            });

    // 3. DP fine-tuning: its release is the generator's noisy statistic.
    FineTunableGenerator.DpSgdSettings dp =
        accounting == null
            ? new FineTunableGenerator.DpSgdSettings(config.clipNorm(), 0, 1, n, config.privateWeight())
            : new FineTunableGenerator.DpSgdSettings(
                config.clipNorm(), accounting.noiseMultiplier(), config.steps(), config.batchSize(), config.privateWeight());
    FineTunableGenerator.DpNoise noise =
        new FineTunableGenerator.DpNoise() {
          @Override
          public double gaussian(double sd) {
            return ctx.noise().gaussian(sd);
          }

          @Override
          public boolean bernoulli(double p) {
            return ctx.noise().bernoulli(p);
          }
        };
    if (base.releasesFineTuning()) {
      double[] g =
          ctx.store().release(
              CTCLPlan.FINE_TUNING,
              () -> PrivateTexts.fineTuningRelease(base, ctx.privateData(), keywordsOf, dp, noise));
      tuned = base.fromFineTuningRelease(g, dp, n);
    } else {
      // Not storable: CTCL.Builder refuses a checkpoint for such a generator, so this is drawn once.
      TextGenerator[] out = new TextGenerator[1];
      ctx.store().release(
          CTCLPlan.FINE_TUNING,
          () -> {
            out[0] = PrivateTexts.fineTune(base, ctx.privateData(), keywordsOf, dp, noise);
            return new double[0];
          });
      if (out[0] == null) {
        throw new IllegalStateException(
            "checkpoint holds CTCL's fine-tuning but generator '" + base.name() + "' cannot be rebuilt from it");
      }
      tuned = out[0];
    }
  }

  /**
   * The requested size allocated to (label, topic) bins in proportion to the noisy histogram (in a
   * private run pulled towards the public one, {@link #shrunkToPublic}) by largest remainder
   * (negative bins count as 0); each text is conditioned on its topic's keywords
   * and aimed at the mean length of the topic's public documents.
   */
  @Override
  public List<Offspring> initial(RunContext ctx, SplittableRandom rng) {
    int bins = topics.topics() + 1;
    double[] h = accounting == null ? histogram : shrunkToPublic(histogram, publicBins(ctx), config.histogramSigma());
    int[] share = Allocation.largestRemainder(h, ctx.settings().syntheticSize());
    List<Offspring> out = new ArrayList<>(ctx.settings().syntheticSize());
    for (int b = 0; b < share.length; b++) {
      Optional<Label> label = ctx.label(b / bins);
      List<String> kws = topics.keywords(b % bins);
      int words = topics.targetWords(b % bins);
      for (int j = 0; j < share[b]; j++) {
        GenerationTask task = new GenerationTask.Random(label.map(Label::name).orElse(null), kws, words);
        out.add(new Offspring(task, List.of(), OPERATOR, label));
      }
    }
    return out;
  }

  /**
   * The public records' (label, topic) counts, in the histogram's layout (public facts only): a
   * record whose label is not one of the run's groups is left out.
   */
  private double[] publicBins(RunContext ctx) {
    int bins = topics.topics() + 1;
    double[] out = new double[ctx.groups() * bins];
    EmbeddingMatrix pub = ctx.publicUnit();
    List<Label> labels = ctx.labels();
    for (int i = 0; i < pub.rows(); i++) {
      int g = 0;
      if (!labels.isEmpty()) {
        Optional<Label> l = ctx.publicData().records().get(i).label();
        g = l.isPresent() ? labels.indexOf(l.get()) : -1;
      }
      if (g >= 0) {
        out[g * bins + topics.assign(pub.row(i))]++;
      }
    }
    return out;
  }

  /**
   * The noisy histogram pulled towards the public one (scaled to the noisy total) by the
   * positive-part James-Stein factor {@code max(0, 1 - (B - 2) sigma^2 / |h - prior|^2)} for B
   * bins with known noise sigma: where the differences from the public distribution are no larger
   * than the noise, the allocation follows the public topics; where they stand out, the noisy
   * counts. Post-processing of the release with public inputs; without noise it changes nothing.
   */
  static double[] shrunkToPublic(double[] noisy, double[] publicCounts, double sigma) {
    int b = noisy.length;
    double total = 0;
    double publicTotal = 0;
    for (int i = 0; i < b; i++) {
      total += noisy[i];
      publicTotal += publicCounts[i];
    }
    if (b < 3 || !(publicTotal > 0) || !(total > 0) || !(sigma > 0)) {
      return noisy.clone();
    }
    double[] prior = new double[b];
    double gap = 0;
    for (int i = 0; i < b; i++) {
      prior[i] = total * publicCounts[i] / publicTotal;
      double d = noisy[i] - prior[i];
      gap += d * d;
    }
    double w = gap > 0 ? Math.max(0, 1 - (b - 2) * sigma * sigma / gap) : 0;
    double[] out = new double[b];
    for (int i = 0; i < b; i++) {
      out[i] = prior[i] + w * (noisy[i] - prior[i]);
    }
    return out;
  }

  @Override
  public double[] vote(RunContext ctx, int round, List<SyntheticText> population, EmbeddingMatrix unit) {
    throw new UnsupportedOperationException("CTCL does not vote");
  }

  @Override
  public List<Offspring> vary(RunContext ctx, int round, List<SyntheticText> survivors, SplittableRandom rng) {
    throw new UnsupportedOperationException("CTCL does not vary");
  }

  @Override
  public DpBudget budget() {
    return accounting == null ? null : config.budget();
  }

  @Override
  public void report(PrivacyReport.Builder report) {
    if (accounting != null) {
      report.sigma(accounting.noiseMultiplier());
    }
  }

  @Override
  public List<String> deviations(RunContext ctx) {
    double delta = config.budget().delta();
    return List.of(
        String.format(Locale.ROOT,
            "Histogram (Gaussian std %.3g, sensitivity 1) alone: epsilon=%.4f; DP fine-tuning (z=%.4f, q=%.5f, %d steps, C=%.3g) alone: epsilon=%.4f; composed by PLD: epsilon=%.4f at delta=%.3g.",
            config.histogramSigma(), accounting.histogramEpsilon(), accounting.noiseMultiplier(),
            accounting.samplingRate(), config.steps(), config.clipNorm(), accounting.fineTuningEpsilon(),
            accounting.composedEpsilon(), delta),
        "Topics: cosine k-means on public embeddings (the paper uses HDBSCAN); unclassified below the public "
            + config.unclassifiedQuantile() + "-quantile of own-centre cosine.",
        "Allocation: the noisy (label, topic) histogram is pulled towards the public records' histogram by the"
            + " positive-part James-Stein factor for its noise (post-processing; the paper allocates by the noisy"
            + " histogram alone).");
  }
}
