package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.Label;
import dev.secpe.evolution.dpga.DPGAMethod;
import dev.secpe.evolution.dpga.DPGAOptions;
import dev.secpe.evolution.dpga.DPGAPlan;
import dev.secpe.evolution.dpga.VoteCalibration;
import dev.secpe.evolution.engine.Inputs;
import dev.secpe.evolution.engine.Labels;
import dev.secpe.evolution.engine.Method;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * DPGA-TextSyn (Li et al., "Differentially private genetic algorithm for synthetic text
 * generation"): DP metadata (SVT length range; Laplace label, length and keyword histograms), then
 * rounds of Poisson-subsampled Gaussian nearest-neighbour votes, distinct-elite selection by
 * similarity suppression, and expansion of the elites by rewrite, fill, cross and generate.
 *
 * <p>Accounting: the paper's split (0.2 of epsilon for SVT, 0.3 for the histograms) is the
 * default; the similarity threshold tau, which the paper computes from private data without
 * accounting, is charged too (0.05 of epsilon by default); the vote noise is then the least that
 * keeps the PLD composition of <em>every</em> release within (epsilon, delta) — tighter than the
 * paper's basic composition, whose figure the report gives next to ours.
 */
public final class DPGA extends Runs<DPGA.Config> {

  /**
   * Fractions of epsilon given to the pure-DP parts; the votes get what the PLD composition
   * leaves.
   *
   * @param svt the two AboveThreshold runs together (paper: 0.2)
   * @param histograms the label, length and keyword histograms together (paper: 0.3)
   * @param tau the similarity threshold (not in the paper; default 0.05)
   */
  public record Split(double svt, double histograms, double tau) {
    /** Validates eagerly. */
    public Split {
      for (double[] f : new double[][] {{svt}, {histograms}, {tau}}) {
        if (!(f[0] > 0 && f[0] < 1)) {
          throw new IllegalArgumentException(
              "split fractions must be in (0, 1), got svt=" + svt + " histograms=" + histograms + " tau=" + tau);
        }
      }
      if (!(svt + histograms + tau < 1)) {
        throw new IllegalArgumentException(
            "split fractions must leave room for the votes, got svt + histograms + tau = " + (svt + histograms + tau));
      }
    }

    /** The paper's split plus 0.05 for tau. */
    public static Split paper() {
      return new Split(0.2, 0.3, 0.05);
    }
  }

  /**
   * How many offspring of each operator, as multiples of the elite count (paper: 2,000 elites and
   * 2,000 of each operator: all 1).
   *
   * @param rewrite rewrite mutations
   * @param fill fill-in mutations
   * @param cross crossovers
   * @param generate fresh samples from the metadata
   */
  public record Shares(int rewrite, int fill, int cross, int generate) {
    /** Validates eagerly. */
    public Shares {
      if (rewrite < 0 || fill < 0 || cross < 0 || generate < 0 || rewrite + fill + cross + generate == 0) {
        throw new IllegalArgumentException(
            "operator shares must be >= 0 and not all 0, got rewrite=" + rewrite + " fill=" + fill
                + " cross=" + cross + " generate=" + generate);
      }
    }

    /** The paper's 1:1:1:1. */
    public static Shares paper() {
      return new Shares(1, 1, 1, 1);
    }

    /** Population size as a multiple of the elites: elites plus offspring. */
    public int total() {
      return 1 + rewrite + fill + cross + generate;
    }
  }

  /**
   * How elites are kept apart (DPGA-TextSyn §3.3.2 suppresses every candidate more similar to an
   * elite already taken than a threshold).
   */
  public enum Suppression {
    /**
     * The paper's threshold tau: the mean cosine of two private records, released with Laplace
     * noise (charged to the ledger; the paper does not account it). On corpora whose generator
     * writes text as varied as the private records, it holds the elites farther apart than the
     * private records themselves are, and the set stops moving towards them (docs/utility.md).
     */
    PAPER,
    /**
     * The default: only near-duplicates are suppressed, at the public threshold {@link
     * #NEAR_DUPLICATE_COSINE}, so that one text and its near-copies do not take over the elites;
     * nothing is released for it.
     */
    NEAR_DUPLICATES,
    /**
     * No suppression: elites by votes alone (exact copies never reach a population unless allowed).
     */
    OFF;

    /** The cosine from which {@link #NEAR_DUPLICATES} suppresses a candidate. */
    public static final double NEAR_DUPLICATE_COSINE = DPGAOptions.NEAR_DUPLICATE_COSINE;
  }

  /**
   * DPGA's immutable configuration.
   *
   * @param settings shared settings (syntheticSize is the elite count)
   * @param budget the whole run's (epsilon, delta): null exactly when {@code settings.privacy()} is
   *     {@link PrivacyMode.NonPrivate}
   * @param split the pure-DP fractions
   * @param shares operator shares
   * @param samplingRate Poisson sampling rate of the votes (paper: 0.8)
   * @param freshSubsamplePerRound draw a new Poisson subsample every round instead of once per run
   * @param lengthBins length histogram bins (paper: 100)
   * @param keywordCandidates public keyword candidates per label
   * @param keywordsPerPrompt keywords put in each generate prompt
   * @param keywordTemperature softmax temperature over noisy keyword votes
   * @param tauSample private records in the tau sample (at most N)
   * @param tauStep tau increment when too few elites survive (paper: 0.01)
   * @param similaritySuppression how elites are kept apart (default {@link Suppression#NEAR_DUPLICATES};
   *     the paper: {@link Suppression#PAPER})
   */
  public record Config(
      EvolutionSettings settings,
      @Nullable DpBudget budget,
      Split split,
      Shares shares,
      double samplingRate,
      boolean freshSubsamplePerRound,
      int lengthBins,
      int keywordCandidates,
      int keywordsPerPrompt,
      double keywordTemperature,
      int tauSample,
      double tauStep,
      Suppression similaritySuppression) implements RunConfig {

    /** Validates eagerly. */
    public Config {
      RunConfig.requireBudgetMatches(settings, "budget", budget);
      Objects.requireNonNull(split, "split");
      Objects.requireNonNull(shares, "shares");
      Objects.requireNonNull(similaritySuppression, "similaritySuppression");
      if (!(samplingRate > 0 && samplingRate <= 1)) {
        throw new IllegalArgumentException("samplingRate must be in (0, 1], got samplingRate=" + samplingRate);
      }
      if (lengthBins < 1 || keywordCandidates < 1 || keywordsPerPrompt < 1 || tauSample < 2) {
        throw new IllegalArgumentException(
            "lengthBins, keywordCandidates, keywordsPerPrompt must be >= 1 and tauSample >= 2, got lengthBins="
                + lengthBins + " keywordCandidates=" + keywordCandidates + " keywordsPerPrompt="
                + keywordsPerPrompt + " tauSample=" + tauSample);
      }
      if (!(keywordTemperature > 0) || !(tauStep > 0)) {
        throw new IllegalArgumentException(
            "keywordTemperature and tauStep must be > 0, got keywordTemperature=" + keywordTemperature
                + " tauStep=" + tauStep);
      }
    }

    String describe() {
      return (budget == null ? "non-private" : "eps=" + budget.epsilon() + ", delta=" + budget.delta()) + ", split=" + split + ", shares=" + shares
          + ", q=" + samplingRate + (freshSubsamplePerRound ? " per round" : " once") + ", bins=" + lengthBins + ", keywords=" + keywordCandidates + "/" + keywordsPerPrompt
          + (similaritySuppression == Suppression.PAPER ? ", tauSample=" + tauSample + ", tauStep=" + tauStep : "")
          + ", suppression=" + similaritySuppression;
    }
  }

  private final VoteCalibration calibration;

  /** The vote noise solved at build() (tests). */
  VoteCalibration calibration() {
    return calibration;
  }

  /**
   * What DPGA's steps read of {@code c}: plain values, so that the steps never import this class.
   */
  static DPGAOptions options(Config c) {
    return new DPGAOptions(
        c.settings(), c.budget(),
        new DPGAOptions.Split(c.split().svt(), c.split().histograms(), c.split().tau()),
        new DPGAOptions.Shares(c.shares().rewrite(), c.shares().fill(), c.shares().cross(), c.shares().generate()),
        c.samplingRate(), c.freshSubsamplePerRound(), c.lengthBins(), c.keywordCandidates(), c.keywordsPerPrompt(),
        c.keywordTemperature(), c.tauSample(), c.tauStep(),
        DPGAOptions.Suppression.valueOf(c.similaritySuppression().name()));
  }

  private DPGA(Config config, Inputs inputs, VoteCalibration calibration, PrivacyPlan plan) {
    super(config, inputs, plan);
    this.calibration = calibration;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  Method newMethod() {
    return new DPGAMethod(options(config()), calibration, privacyPlan());
  }

  @Override
  String describe() {
    return config().describe();
  }

  @Override
  List<String> methodWarnings() {
    return DPGAMethod.warnings(options(config()), privacyPlan(), calibration, inputs.privateData().size());
  }


  /** Builds {@link DPGA} runs. */
  public static final class Builder extends EvolutionBuilder<Builder> {
    private DpBudget budget;
    private Split split = Split.paper();
    private Shares shares = Shares.paper();
    private double samplingRate = 0.8;
    private boolean freshSubsample;
    private int lengthBins = 100;
    private int keywordCandidates = 50;
    private int keywordsPerPrompt = 3;
    private double keywordTemperature = 1.0;
    private int tauSample = 500;
    private double tauStep = 0.01;
    private Suppression suppression = Suppression.NEAR_DUPLICATES;

    Builder() {}

    @Override
    Builder self() {
      return this;
    }

    @Override
    long candidatesPerSurvivor() {
      return 1L + shares.rewrite() + shares.fill() + shares.cross() + shares.generate();
    }

    /** The whole run's (epsilon, delta); delta > 0 is required by the Gaussian votes. */
    public Builder budget(DpBudget budget) {
      requireApproximateDp("DPGA", budget);
      this.budget = budget;
      return this;
    }

    /** The pure-DP split (default: the paper's 0.2 / 0.3, plus 0.05 for tau). */
    public Builder split(Split split) {
      this.split = Objects.requireNonNull(split, "split");
      return this;
    }

    /** Operator shares (default 1:1:1:1). */
    public Builder shares(Shares shares) {
      this.shares = Objects.requireNonNull(shares, "shares");
      return this;
    }

    /** Poisson sampling rate of the votes (default 0.8). */
    public Builder samplingRate(double q) {
      if (!(q > 0 && q <= 1)) {
        throw new IllegalArgumentException("samplingRate must be in (0, 1], got samplingRate=" + q);
      }
      this.samplingRate = q;
      return this;
    }

    /**
     * Draw a fresh Poisson subsample every round (T subsampled releases) instead of one for the whole
     * run (the default, as the paper describes it).
     */
    public Builder freshSubsamplePerRound(boolean on) {
      this.freshSubsample = on;
      return this;
    }

    /** Length histogram bins (default 100). */
    public Builder lengthBins(int bins) {
      if (bins < 1) {
        throw new IllegalArgumentException("lengthBins must be >= 1, got lengthBins=" + bins);
      }
      this.lengthBins = bins;
      return this;
    }

    /** Public keyword candidates per label (default 50) and keywords per prompt (default 3). */
    public Builder keywords(int candidates, int perPrompt) {
      if (candidates < 1 || perPrompt < 1) {
        throw new IllegalArgumentException(
            "keyword counts must be >= 1, got candidates=" + candidates + " perPrompt=" + perPrompt);
      }
      this.keywordCandidates = candidates;
      this.keywordsPerPrompt = perPrompt;
      return this;
    }

    /** Records in the tau sample (default 500, capped at the dataset size). */
    public Builder tauSample(int m) {
      if (m < 2) {
        throw new IllegalArgumentException("tauSample must be >= 2, got tauSample=" + m);
      }
      this.tauSample = m;
      return this;
    }

    /**
     * How elites are kept apart (default {@link Suppression#NEAR_DUPLICATES}; the paper's rule is
     * {@link Suppression#PAPER}, which adds the threshold's release to the plan).
     */
    public Builder similaritySuppression(Suppression mode) {
      this.suppression = Objects.requireNonNull(mode, "similaritySuppression");
      return this;
    }

    @Override
    List<String> missingOwn() {
      return budgetMissing(budget, "budget(DpBudget)");
    }

    /** Validates everything and returns a single-use run. */
    public DPGA build() {
      EvolutionSettings s = settings();
      requireInMemory("DPGA", "its word-count histograms and subsampled votes read them");
      refuseUnused("DPGA", "its offspring per round follow its operator shares", "variations");
      refuseBudgetWhenNonPrivate(budget);
      if (privateData.size() < 2) {
        throw new IllegalArgumentException("DPGA needs at least 2 private records, got " + privateData.size());
      }
      // The dataset size N is treated as public, as in the papers (delta = 1/(N ln N)).
      int m = Math.min(tauSample, privateData.size());
      Config c = new Config(s, budget, split, shares, samplingRate, freshSubsample, lengthBins, keywordCandidates,
          keywordsPerPrompt, keywordTemperature, m, tauStep, suppression);
      // The whole plan is solved here: an unreachable budget is refused before any record is read.
      List<Label> labels = Labels.of(privateData.isLabelled(), s.labels());
      DPGAOptions o = options(c);
      VoteCalibration v = DPGAPlan.calibrate(o, labels);
      return new DPGA(c, new Inputs(privateData, publicData, generator, embedder), v, DPGAPlan.plan(o, labels, v));
    }
  }
}
