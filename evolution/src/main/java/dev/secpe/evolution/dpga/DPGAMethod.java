package dev.secpe.evolution.dpga;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.Provenance;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.evolution.engine.Allocation;
import dev.secpe.evolution.engine.ApproximateDpMethod;
import dev.secpe.evolution.kernel.Kernel;
import dev.secpe.evolution.engine.Keywords;
import dev.secpe.evolution.engine.LengthRange;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.engine.Seeds;
import dev.secpe.evolution.engine.Selection;
import dev.secpe.evolution.engine.Variation;
import dev.secpe.llm.GenerationTask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * DPGA-TextSyn (Li et al.): metadata released under pure DP (an SVT length range, Laplace label,
 * length and keyword histograms), Poisson-subsampled Gaussian nearest-neighbour votes, distinct
 * elite selection by similarity suppression with a DP threshold tau, and the genetic operators
 * mutate (rewrite, fill), cross and generate.
 */
public final class DPGAMethod implements ApproximateDpMethod {

  /** Word counts above this are treated as this (caps the SVT query stream). */
  static final int MAX_WORDS = 4096;

  private final DPGAOptions config;
  private final VoteCalibration calibration;
  private final PrivacyPlan plan;
  private int minWords;
  private int maxWords;
  private double[] lengthHistogram;
  private double[][] keywordWeights;
  private List<List<String>> keywords;
  private double tau;

  /** A run of {@code config} with its vote noise solved at build() (see {@link DPGA#calibrate}). */
  public DPGAMethod(DPGAOptions config, VoteCalibration calibration, PrivacyPlan plan) {
    this.plan = plan;
    this.config = config;
    this.calibration = calibration;
  }

  @Override
  public String name() {
    return "dpga";
  }

  @Override
  public PrivacyPlan plan() {
    return plan;
  }

  /** The noise scales of this run ({@link DPGAPlan#NONE} for a non-private run). */
  private DPGAPlan.Scales scales(RunContext ctx) {
    if (!plan.isPrivate()) {
      return DPGAPlan.NONE;
    }
    return DPGAPlan.scales(
        config, DPGAPlan.metadata(config, DPGAPlan.labelsReleased(config, ctx.labels())), calibration.sigma());
  }

  @Override
  public void prepare(RunContext ctx) {
    DPGAPlan.Scales scales = scales(ctx);
    int[] words = new int[ctx.privateData().size()];
    for (int i = 0; i < words.length; i++) {
      words[i] = Math.min(MAX_WORDS, ctx.privateData().get(i).text().wordCount());
    }

    // 1. SVT length range: max, then min (AboveThreshold, DPGA appendix B.2 scales).
    Calibration.SvtScales svt = scales.svt();
    maxWords = (int) ctx.store().release(DPGAPlan.LENGTH_MAX, () -> new double[] {svtFirstBelow(ctx, words, svt, true)})[0];
    minWords = (int) ctx.store().release(DPGAPlan.LENGTH_MIN, () -> new double[] {svtFirstBelow(ctx, words, svt, false)})[0];
    if (minWords > maxWords) {
      int t = minWords;
      minWords = maxWords;
      maxWords = t;
    }
    // The released range clipped to the public lengths (post-processing with public data): at
    // small N the SVT's noise can stretch it to thousands of words that no record has.
    Optional<LengthRange> pub = LengthRange.of(ctx.publicData());
    if (pub.isPresent()) {
      int lo = pub.get().clip(minWords);
      int hi = pub.get().clip(maxWords);
      minWords = lo;
      maxWords = hi;
    }

    // 2. Laplace histograms (sensitivity 1 each: a record falls in one bin).
    double b = scales.histogram();
    int bins = config.lengthBins();
    double[] lengthCounts = new double[bins];
    for (int w : words) {
      lengthCounts[lengthBin(w, bins)]++;
    }
    lengthHistogram = ctx.store().release(DPGAPlan.LENGTH_HISTOGRAM, () -> ctx.addLaplace(lengthCounts, b));
    if (!ctx.labels().isEmpty()) {
      if (DPGAPlan.labelsReleased(config, ctx.labels())) {
        double[] counts = new double[ctx.groups()];
        for (int i = 0; i < words.length; i++) {
          counts[ctx.privateGroup(i)]++;
        }
        double[] noisy = ctx.store().release(DPGAPlan.LABELS, () -> ctx.addLaplace(counts, b));
        ctx.setShares(noisy);
      } else {
        ctx.setShares(ctx.publicProportions());
      }
    }

    // 3. Keywords: public candidates per label, private nearest-keyword votes, Laplace noise.
    keywords = Keywords.candidates(ctx, config.keywordCandidates());
    keywordWeights = new double[ctx.groups()][];
    List<float[]> all = new ArrayList<>();
    List<Integer> owners = new ArrayList<>();
    for (int g = 0; g < ctx.groups(); g++) {
      float[][] e = keywords.get(g).isEmpty() ? new float[0][] : ctx.embedder().embed(keywords.get(g));
      for (float[] row : e) {
        all.add(row);
        owners.add(g);
      }
    }
    int[] owner = owners.stream().mapToInt(Integer::intValue).toArray();
    double[] kwCounts = new double[all.size()];
    if (!all.isEmpty()) {
      EmbeddingMatrix kw = EmbeddingMatrix.of(all.toArray(new float[0][])).normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO);
      EmbeddingMatrix priv = ctx.privateUnit();
      for (int g = 0; g < ctx.groups(); g++) {
        final int gg = g;
        int[] kwRows = IntStream.range(0, owner.length).filter(i -> owner[i] == gg).toArray();
        int[] rows = ctx.privateRowsOf(g);
        if (kwRows.length == 0 || rows.length == 0) {
          continue;
        }
        for (int k : Kernel.top1(priv, rows, kw, kwRows)) {
          kwCounts[k]++;
        }
      }
    }
    double[] noisyKw = ctx.store().release(DPGAPlan.KEYWORDS, () -> ctx.addLaplace(kwCounts, b));
    int pos = 0;
    for (int g = 0; g < ctx.groups(); g++) {
      int n = keywords.get(g).size();
      keywordWeights[g] = softmax(Arrays.copyOfRange(noisyKw, pos, pos + n), config.keywordTemperature());
      pos += n;
    }

    // 4. The similarity threshold tau: noisy mean off-diagonal cosine of a private sample.
    if (config.similaritySuppression() == DPGAOptions.Suppression.PAPER) {
      double[] tauClean = {meanOffDiagonal(ctx)};
      tau = ctx.store().release(DPGAPlan.TAU, () -> ctx.addLaplace(tauClean, scales.tau()))[0];
      tau = Math.max(-1.0, Math.min(1.0, tau));
    } else {
      tau = DPGAOptions.NEAR_DUPLICATE_COSINE;
    }
  }

  /**
   * AboveThreshold on counts of records longer (max) or shorter (min) than i: the first i below.
   */
  private static double svtFirstBelow(RunContext ctx, int[] words, Calibration.SvtScales svt, boolean max) {
    // Queries f_i = -(number of records beyond i); threshold 0: halts at the first i where no
    // (noisy) record lies beyond i. Sensitivity 1.
    double noisyThreshold = ctx.noise().laplace(svt.thresholdScale());
    int[] beyond = new int[MAX_WORDS + 2];
    for (int w : words) {
      beyond[w]++;
    }
    // Suffix (max) or prefix (min) sums.
    if (max) {
      int acc = 0;
      for (int i = MAX_WORDS + 1; i >= 0; i--) {
        int c = beyond[i];
        beyond[i] = acc; // records with length > i
        acc += c;
      }
      for (int i = 0; i <= MAX_WORDS; i++) {
        if (-beyond[i] + ctx.noise().laplace(svt.queryScale()) >= noisyThreshold) {
          return i;
        }
      }
      return MAX_WORDS;
    }
    int acc = 0;
    int[] below = new int[MAX_WORDS + 2];
    for (int i = 0; i <= MAX_WORDS + 1; i++) {
      below[i] = acc; // records with length < i
      acc += beyond[i];
    }
    for (int i = MAX_WORDS; i >= 0; i--) {
      if (-below[i] + ctx.noise().laplace(svt.queryScale()) >= noisyThreshold) {
        return i;
      }
    }
    return 0;
  }

  private int lengthBin(int words, int bins) {
    int lo = minWords;
    int hi = Math.max(maxWords, lo + 1);
    double x = (Math.min(Math.max(words, lo), hi) - lo) / (double) (hi - lo);
    return Math.min(bins - 1, (int) Math.floor(x * bins));
  }

  /**
   * exp(x_i / temperature), normalised to sum to 1 (shifted by the maximum first, so it cannot
   * overflow).
   */
  public static double[] softmax(double[] x, double temperature) {
    double[] out = new double[x.length];
    if (x.length == 0) {
      return out;
    }
    double m = Arrays.stream(x).max().orElse(0);
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.exp((x[i] - m) / temperature);
      s += out[i];
    }
    for (int i = 0; i < x.length; i++) {
      out[i] /= s;
    }
    return out;
  }

  /** Mean cosine over distinct pairs of the bottom-m records by a seeded hash of their position. */
  private double meanOffDiagonal(RunContext ctx) {
    int n = ctx.privateData().size();
    int m = config.tauSample();
    if (m > n) {
      throw new IllegalStateException("tauSample " + m + " exceeds the private dataset size");
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    long base = Seeds.derive(ctx.settings().seed(), "tau-sample", 0);
    Arrays.sort(order, (a, c) -> Long.compare(Seeds.derive(base, ctx.privateData().get(a).id(), 0),
        Seeds.derive(base, ctx.privateData().get(c).id(), 0)));
    EmbeddingMatrix priv = ctx.privateUnit();
    if (m < 2) {
      return 0.0;
    }
    double sum = 0;
    for (int a = 0; a < m; a++) {
      for (int c = a + 1; c < m; c++) {
        sum += priv.dot(order[a], priv, order[c]);
      }
    }
    return sum / (m * (m - 1) / 2.0);
  }

  @Override
  public List<Offspring> initial(RunContext ctx, SplittableRandom rng) {
    int total = ctx.settings().syntheticSize() * config.shares().total();
    int[] perGroup = Allocation.largestRemainder(toDouble(ctx.shares()), total);
    List<Offspring> out = new ArrayList<>();
    for (int g = 0; g < perGroup.length; g++) {
      for (int i = 0; i < perGroup[g]; i++) {
        out.add(fromMetadata(ctx, g, rng, Provenance.INITIAL));
      }
    }
    return out;
  }

  private static double[] toDouble(int[] x) {
    return Arrays.stream(x).asDoubleStream().toArray();
  }

  private Offspring fromMetadata(RunContext ctx, int g, SplittableRandom rng, String operator) {
    List<String> kws = new ArrayList<>();
    List<String> cands = keywords.get(g);
    for (int k = 0; k < Math.min(config.keywordsPerPrompt(), cands.size()); k++) {
      String w = cands.get(sample(keywordWeights[g], rng));
      if (!kws.contains(w)) {
        kws.add(w);
      }
    }
    int words = sampleLength(rng);
    Optional<Label> label = ctx.label(g);
    return new Offspring(
        new GenerationTask.Random(label.map(Label::name).orElse(null), kws, words),
        List.of(),
        operator,
        label);
  }

  private int sampleLength(SplittableRandom rng) {
    double[] w = lengthHistogram.clone();
    for (int i = 0; i < w.length; i++) {
      w[i] = Math.max(0, w[i]);
    }
    int bin = sample(w, rng);
    int lo = minWords;
    int hi = Math.max(maxWords, lo + 1);
    double from = lo + (hi - lo) * (bin / (double) w.length);
    double to = lo + (hi - lo) * ((bin + 1) / (double) w.length);
    return Math.max(1, (int) Math.round(from + rng.nextDouble() * (to - from)));
  }

  private static int sample(double[] weights, SplittableRandom rng) {
    double s = 0;
    for (double w : weights) {
      s += Math.max(0, w);
    }
    if (!(s > 0)) {
      return rng.nextInt(weights.length);
    }
    double u = rng.nextDouble() * s;
    for (int i = 0; i < weights.length; i++) {
      u -= Math.max(0, weights[i]);
      if (u < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** The run's one Poisson subsample (1 = in), when not drawing one per round. */
  private boolean[] subsample;

  /**
   * Charges the T vote rounds up front as one subsampled Gaussian on one Poisson subsample, which is
   * drawn (securely) and stored as that release's value, so a resumed run reuses it.
   */
  private void drawSubsample(RunContext ctx) {
    double q = config.samplingRate();
    double[] bits =
        ctx.store()
            .release(
                DPGAPlan.VOTES,
                () -> {
                  double[] b = new double[ctx.privateData().size()];
                  for (int i = 0; i < b.length; i++) {
                    b[i] = ctx.noise().bernoulli(q) ? 1 : 0;
                  }
                  return b;
                });
    subsample = new boolean[bits.length];
    for (int i = 0; i < bits.length; i++) {
      subsample[i] = bits[i] == 1;
    }
  }

  @Override
  public double[] vote(RunContext ctx, int round, List<SyntheticText> population, EmbeddingMatrix unit) {
    double sigma = calibration.sigma();
    double q = config.samplingRate();
    boolean fresh = config.freshSubsamplePerRound();
    if (!fresh && subsample == null) {
      drawSubsample(ctx);
    }
    EmbeddingMatrix priv = ctx.privateUnit();
    String id = DPGAPlan.votes(round);
    Supplier<double[]> draw =
        () -> {
          double[] h = new double[population.size()];
          for (int g = 0; g < ctx.groups(); g++) {
            int[] cand = RunContext.rowsOf(ctx, population, g);
            // The subsample is part of the mechanism: drawn from the secure noise source.
            int[] rows =
                Arrays.stream(ctx.privateRowsOf(g))
                    .filter(i -> fresh ? ctx.noise().bernoulli(q) : subsample[i])
                    .toArray();
            if (cand.length == 0 || rows.length == 0) {
              continue;
            }
            float[] centre = ctx.voteCentre(unit, cand);
            for (int c : Kernel.top1(priv, rows, unit, cand, centre)) {
              h[c]++;
            }
          }
          return ctx.addGaussian(h, sigma);
        };
    return fresh ? ctx.store().release(id, draw) : ctx.store().releaseCovered(id, draw);
  }

  @Override
  public int[] select(
      RunContext ctx, int round, double[] votes, List<SyntheticText> population, EmbeddingMatrix unit) {
    int[] shares = ctx.shares();
    List<Integer> chosen = new ArrayList<>();
    for (int g = 0; g < ctx.groups(); g++) {
      int[] rows = RunContext.rowsOf(ctx, population, g);
      double[] sub = new double[rows.length];
      float[][] e = new float[rows.length][];
      for (int k = 0; k < rows.length; k++) {
        sub[k] = votes[rows[k]];
        e[k] = unit.row(rows[k]);
      }
      int take = Math.min(shares[g], rows.length);
      if (config.similaritySuppression() == DPGAOptions.Suppression.OFF) {
        for (int k : Selection.topN(sub, take)) {
          chosen.add(rows[k]);
        }
        continue;
      }
      for (int k : SimilaritySuppression.select(sub, e, tau, config.tauStep(), take).selected()) {
        chosen.add(rows[k]);
      }
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public List<Offspring> vary(
      RunContext ctx, int round, List<SyntheticText> elites, SplittableRandom rng) {
    DPGAOptions.Shares s = config.shares();
    List<Offspring> out = new ArrayList<>();
    for (int g = 0; g < ctx.groups(); g++) {
      List<SyntheticText> mine = new ArrayList<>();
      for (SyntheticText t : elites) {
        if (ctx.group(t) == g) {
          mine.add(t);
        }
      }
      if (mine.isEmpty()) {
        continue;
      }
      int n = mine.size();
      for (int i = 0; i < s.rewrite() * n; i++) {
        SyntheticText p = mine.get(i % n);
        out.add(new Offspring(new GenerationTask.Rewrite(p.text(), name(p)), List.of(p.id()), Provenance.REWRITE, p.label()));
      }
      List<SyntheticText> fillParents = new ArrayList<>();
      for (int i = 0; i < s.fill() * n; i++) {
        fillParents.add(mine.get(i % n));
      }
      out.addAll(Variation.fillIn(ctx, fillParents, 1, rng));
      for (int i = 0; i < s.cross() * n; i++) {
        SyntheticText a = mine.get(rng.nextInt(n));
        SyntheticText b = mine.get(rng.nextInt(n));
        out.add(new Offspring(new GenerationTask.Cross(a.text(), b.text(), name(a)), List.of(a.id(), b.id()), Provenance.CROSS, a.label()));
      }
      for (int i = 0; i < s.generate() * n; i++) {
        out.add(fromMetadata(ctx, g, rng, Provenance.GENERATE));
      }
    }
    return out;
  }

  private static String name(SyntheticText t) {
    return t.label().map(Label::name).orElse(null);
  }

  /** The vote calibration (PLD and the paper's own analysis). */
  public VoteCalibration calibration() {
    return calibration;
  }

  @Override
  public DpBudget budget() {
    return config.budget();
  }

  @Override
  public void report(PrivacyReport.Builder report) {
    if (config.budget() != null) {
      report.sigma(calibration().sigma());
    }
  }

  @Override
  public List<String> warnings(RunContext ctx) {
    return warnings(config, plan, calibration, ctx.privateData().size());
  }

  /**
   * Settings that make a run weak, known before it starts (public facts only): the vote noise
   * against the average vote a candidate receives, {@code q N} subsampled votes spread over the
   * {@code N_syn} elites and their offspring.
   */
  public static List<String> warnings(DPGAOptions config, PrivacyPlan plan, VoteCalibration v, int privateRecords) {
    if (!plan.isPrivate()) {
      return List.of();
    }
    int candidates = config.settings().syntheticSize() * config.shares().total();
    double mean = config.samplingRate() * privateRecords / candidates;
    if (!(v.sigma() > mean)) {
      return List.of();
    }
    return List.of(String.format(Locale.ROOT,
        "DPGA's vote noise (sigma = %.3g) exceeds the average vote a candidate receives (%.3g: q = %s of"
            + " %d private records over %d candidates a round): the elites follow the noise more than"
            + " the private data. More private records, fewer candidates or a larger budget help.",
        v.sigma(), mean, config.samplingRate(), privateRecords, candidates));
  }

  @Override
  public List<String> deviations(RunContext ctx) {
    // only for private runs: the runner does not ask a non-private run for deviations
    List<String> out = new ArrayList<>();
    out.add(
        "Votes: noise multiplier " + calibration.sigma() + " calibrated with the PLD accountant over every"
            + " release (SVT, histograms, tau and " + ctx.settings().iterations() + " subsampled Gaussian votes);"
            + " the paper's own analysis (basic composition + amplification of the composed Gaussian) needs "
            + calibration.paperSigma() + " for the same budget, and with the PLD noise it would claim epsilon "
            + calibration.paperEpsilonAtPldSigma() + ".");
    if (config.similaritySuppression() == DPGAOptions.Suppression.PAPER) {
      out.add(
          "The similarity threshold tau is computed from private data; the paper does not account it. Here it"
              + " is a Laplace release with sensitivity 4/m over a hash-ranked sample of m = "
              + config.tauSample() + " records, charged to the ledger.");
    } else {
      out.add(
          "Elites are kept apart " + (config.similaritySuppression() == DPGAOptions.Suppression.OFF ? "by nothing but"
              + " votes" : "only from near-duplicates (cosine >= " + DPGAOptions.NEAR_DUPLICATE_COSINE
              + ", a public constant)") + ", not by the paper's threshold tau (the mean similarity of two private"
              + " records, which holds the elites farther apart than the private records are); nothing is"
              + " released for it.");
    }
    out.add("Lengths are measured in words, not tokenizer tokens; the released length range is clipped to the"
        + " public records' range before the length histogram is binned (post-processing with public data).");
    return out;
  }
}
