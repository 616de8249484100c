package dev.secpe.evolution.augpe;

import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.LabelSet;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.engine.Seeds;
import dev.secpe.evolution.engine.Selection;
import dev.secpe.evolution.engine.Variation;
import dev.secpe.evolution.engine.Votes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Aug-PE (Xie et al. 2024): every private record votes for its k nearest candidates of its own
 * label with weight 1/sqrt(k) (L2 sensitivity 1), Gaussian noise of multiplier sigma is added to
 * the histogram of each of the T rounds, counts below H are zeroed, and the top (or a
 * proportional sample) of each label survives and is varied by fill-in.
 */
public final class AugPEMethod implements Method {

  private final AugPEOptions config;
  private final PrivacyPlan plan;
  private final double sigma;

  /** A run of {@code config} following {@code plan} ({@link AugPEPlan#of}). */
  public AugPEMethod(AugPEOptions config, PrivacyPlan plan) {
    this.config = config;
    this.plan = plan;
    this.sigma = AugPEPlan.sigma(plan);
  }

  @Override
  public PrivacyPlan plan() {
    return plan;
  }

  @Override
  public String name() {
    return "augpe";
  }

  @Override
  public void prepare(RunContext ctx) {
    boolean released =
        !ctx.labels().isEmpty()
            && ctx.settings().labels().orElseThrow() instanceof LabelSet.ToBeReleased;
    if (ctx.labels().isEmpty()) {
      return;
    }
    if (!released) {
      ctx.setShares(ctx.publicProportions());
      return;
    }
    double[] counts = new double[ctx.groups()];
    for (int i = 0; i < ctx.privateSize(); i++) {
      counts[ctx.privateGroup(i)]++;
    }
    double[] noisy = ctx.store().release(AugPEPlan.LABELS, () -> ctx.addGaussian(counts, sigma));
    ctx.setShares(noisy);
  }

  @Override
  public double[] vote(RunContext ctx, int round, List<SyntheticText> population, EmbeddingMatrix unit) {
    double[] histogram = new double[population.size()];
    for (int g = 0; g < ctx.groups(); g++) {
      int[] cand = RunContext.rowsOf(ctx, population, g);
      if (cand.length == 0) {
        continue;
      }
      float[] centre = ctx.voteCentre(unit, cand);
      // Integer counts from the store (wherever the records live), weighted once: each record
      // gives 1/sqrt(k') to each of its k' = min(k, candidates) nearest.
      long[] counts =
          ctx.privateStore().nearestCounts(g, unit.selectRows(cand), centre, config.nearestNeighbours());
      double w = 1.0 / Math.sqrt(Math.min(config.nearestNeighbours(), cand.length));
      for (int j = 0; j < cand.length; j++) {
        histogram[cand[j]] += counts[j] * w;
      }
    }
    double[] noisy = ctx.store().release(AugPEPlan.votes(round), () -> ctx.addGaussian(histogram, sigma));
    return Votes.threshold(noisy, config.threshold());
  }

  @Override
  public int[] select(
      RunContext ctx, int round, double[] votes, List<SyntheticText> population, EmbeddingMatrix unit) {
    if (config.selection() == AugPEOptions.Selection.RANK) {
      return ctx.topPerLabel(votes, population);
    }
    if (config.selection() == AugPEOptions.Selection.LINEAGE) {
      return ctx.selectPerGroup(population, (g, rows, share) -> Lineages.select(votes, population, rows, share));
    }
    SplittableRandom rng = Seeds.random(ctx.settings().seed(), "select", round);
    // PE's rule (Lin et al. 2024): survivors drawn with replacement, in proportion to the votes,
    // so a family of near-duplicates that splits its voters still keeps its share; the last
    // round's survivors are the output, which holds distinct texts.
    boolean last = round == ctx.settings().iterations() - 1;
    return ctx.selectPerGroupOnScores(
        votes,
        population,
        (scores, share) ->
            last
                ? Selection.proportionalDistinct(scores, Math.min(share, scores.length), rng)
                : Selection.proportional(scores, share, rng));
  }

  @Override
  public List<Offspring> vary(
      RunContext ctx, int round, List<SyntheticText> survivors, SplittableRandom rng) {
    return Variation.fillIn(ctx, survivors, ctx.settings().variations(), rng);
  }

  /**
   * Warns when the vote noise exceeds the average vote of a candidate: N private records spread
   * {@code N sqrt(k)} votes over the {@code N_syn (L + 1)} candidates of a round.
   */
  @Override
  public List<String> warnings(RunContext ctx) {
    return warnings(config, plan, ctx.privateSize());
  }

  /**
   * Settings that make a run of {@code config} under {@code plan} on {@code privateRecords}
   * records weak, known before it starts (public facts only): the vote noise against the average
   * vote a candidate receives, {@code N sqrt(k)} votes spread over {@code N_syn (L + 1)}
   * candidates a round.
   */
  public static List<String> warnings(AugPEOptions config, PrivacyPlan plan, int privateRecords) {
    double sigma = AugPEPlan.sigma(plan);
    if (!plan.isPrivate()) {
      return List.of();
    }
    int candidates = config.settings().syntheticSize() * (config.settings().variations() + 1);
    double mean = privateRecords * Math.sqrt(config.nearestNeighbours()) / candidates;
    if (!(sigma > mean)) {
      return List.of();
    }
    return List.of(String.format(Locale.ROOT,
        "Aug-PE's vote noise (sigma = %.3g) exceeds the average vote a candidate receives (%.3g: %d"
            + " private records over %d candidates a round): the selection follows the noise more"
            + " than the private data. More private records, fewer candidates (syntheticSize x"
            + " (variations + 1)) or a larger budget help; SecPE needs less noise at the same (p, r).",
        sigma, mean, privateRecords, candidates));
  }

  @Override
  public double reportDelta() {
    return config.delta();
  }

  @Override
  public double reportPrior() {
    return config.prior();
  }

  @Override
  public void report(PrivacyReport.Builder report) {
    if (sigma > 0) {
      report.sigma(sigma);
    }
  }

  /** The noise multiplier of every release. */
  public double sigma() {
    return sigma;
  }

  @Override
  public List<String> deviations(RunContext ctx) {
    List<String> out = new ArrayList<>();
    out.add(
        "Each of the "
            + ctx.ledger().releases().size()
            + " Gaussian releases has noise multiplier "
            + sigma
            + "; they compose exactly as mu-GDP with mu = sqrt(releases)/sigma, as in"
            + " microsoft/DPSDA.");
    if (!ctx.labels().isEmpty()
        && ctx.settings().labels().orElseThrow() instanceof LabelSet.ToBeReleased) {
      out.add(
          "The label proportions are released through a noisy histogram charged to the ledger;"
              + " the reference implementation reads them off the private data for free.");
    }
    if (config.budgetGivenAsSecret()) {
      out.add(
          "The budget was given as (p, r) and converted to mu by SecPE eq. (4); the resulting"
              + " (p, r) guarantee is per record, so a secret held by g records is protected at"
              + " mu*g (group privacy), which the SecPE paper's comparison does not state.");
    }
    return out;
  }
}
