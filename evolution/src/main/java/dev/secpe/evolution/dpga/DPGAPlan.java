package dev.secpe.evolution.dpga;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.PlanCalibrator;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.evolution.DPGA.Config;
import dev.secpe.evolution.DPGA.Split;
import dev.secpe.evolution.DPGA.VoteCalibration;
import dev.secpe.evolution.EvolutionSettings;
import java.util.List;

/**
 * DPGA's privacy plan: how the budget is split among the metadata releases and what noise the
 * votes need, solved from the configuration and the declared label set only (before any private
 * record is read).
 */
public final class DPGAPlan {

  private DPGAPlan() {}

  /**
   * Sensitivity of the mean off-diagonal cosine of a hash-ranked sample of m records (m <= N):
   * adding or removing one record swaps at most one sample member (or removes one of m), moving
   * m - 1 of the m(m-1)/2 pair similarities by at most 2 each: 4/m.
   */
  public static double tauSensitivity(int m) {
    return 4.0 / m;
  }

  /**
   * What the T vote rounds cost together. With one Poisson subsample for the whole run (the
   * paper's "we first perform Poisson subsampling"), a record is either in all T noisy histograms
   * or in none: T Gaussians of multiplier sigma on one subsample are one subsampled Gaussian of
   * multiplier sigma / sqrt(T). With a fresh subsample per round they are T independent subsampled
   * Gaussians.
   */
  public static PrivacyCost votesCost(Config c, double sigma, int rounds) {
    return c.freshSubsamplePerRound()
        ? new PrivacyCost.SubsampledGaussian(sigma, c.samplingRate(), rounds)
        : new PrivacyCost.SubsampledGaussian(sigma / Math.sqrt(rounds), c.samplingRate(), 1);
  }

  /**
   * How the budget is split among DPGA's metadata releases (pure DP): each AboveThreshold run,
   * each histogram, the threshold tau; and how many histograms there are (length, keywords, and
   * labels when they are released). Public: it depends on the configuration and the label set only.
   */
  public record Metadata(double epsSvtRun, double epsHist, boolean labelsReleased, double epsTau) {
    /** Length, keywords, and labels when they are released. */
    public int histograms() {
      return 2 + (labelsReleased ? 1 : 0);
    }
  }

  public static Metadata metadata(Config c, List<dev.secpe.core.Label> labels, EvolutionSettings s) {
    // A non-private baseline draws no noise: the scales only label its releases.
    double eps = s.nonPrivate() ? 1.0 : c.budget().epsilon();
    boolean labelsReleased =
        !labels.isEmpty() && s.labels().orElseThrow() instanceof dev.secpe.core.LabelSet.ToBeReleased;
    Split split = c.split();
    return new Metadata(split.svt() * eps / 2, split.histograms() * eps / 3, labelsReleased, split.tau() * eps);
  }

  /**
   * The vote noise of a run: solved against the budget from the whole plan (metadata and votes),
   * at build(), before any private record is read; none for a non-private run.
   */
  public static VoteCalibration calibrate(Config c, List<dev.secpe.core.Label> labels) {
    if (c.settings().nonPrivate()) {
      return new VoteCalibration(0.0, Double.NaN, Double.NaN);
    }
    Metadata m = metadata(c, labels, c.settings());
    return calibrateVotes(c, m.epsSvtRun(), m.epsHist(), m.histograms(), m.epsTau(), c.settings().iterations());
  }

  /**
   * What a run charges, as costs: two AboveThreshold runs, the Laplace histograms, tau and the
   * votes with multiplier {@code sigma} (one release of T rounds on one subsample, or T fresh
   * ones). The run's own releases carry descriptions; their costs compose to this plan's.
   */
  public static List<Release> plan(
      Config c, double epsSvtRun, double epsHist, int histograms, double epsTau, int rounds, double sigma) {
    List<Release> plan = new java.util.ArrayList<>();
    plan.add(new Release("svt-max", "AboveThreshold", "", 1, 1, new PrivacyCost.PureDp(epsSvtRun)));
    plan.add(new Release("svt-min", "AboveThreshold", "", 1, 1, new PrivacyCost.PureDp(epsSvtRun)));
    double b = 1.0 / epsHist;
    for (int h = 0; h < histograms; h++) {
      plan.add(new Release("hist-" + h, "Laplace", "", 1, b, new PrivacyCost.Laplace(b, 1.0)));
    }
    plan.add(new Release("tau", "Laplace", "", 1, 1 / epsTau, new PrivacyCost.Laplace(1 / epsTau, 1.0)));
    plan.add(new Release("votes", "Poisson-subsampled Gaussian", "", 1, sigma, votesCost(c, sigma, rounds)));
    return plan;
  }

  /** {@link #plan} for a configuration and its label set, at its calibrated sigma. */
  public static List<Release> plan(Config c, List<dev.secpe.core.Label> labels, double sigma) {
    Metadata m = metadata(c, labels, c.settings());
    return plan(c, m.epsSvtRun(), m.epsHist(), m.histograms(), m.epsTau(), c.settings().iterations(), sigma);
  }

  /**
   * The least vote noise multiplier with which the PLD composition of every release stays within
   * the budget, found by {@link PlanCalibrator} (safe side, relative tolerance 1e-4).
   */
  public static VoteCalibration calibrateVotes(
      Config c, double epsSvtRun, double epsHist, int histograms, double epsTau, int rounds) {
    double eps = c.budget().epsilon();
    double delta = c.budget().delta();
    double pureEps = 2 * epsSvtRun + histograms * epsHist + epsTau;
    java.util.function.DoubleFunction<List<Release>> planAt =
        sigma -> plan(c, epsSvtRun, epsHist, histograms, epsTau, rounds, sigma);
    double sigma =
        PlanCalibrator.leastMultiplier(
            planAt,
            c.budget(),
            0.05,
            () ->
                "budget unreachable: epsilon=" + eps + " is not enough for " + rounds + " vote rounds after"
                    + " the metadata releases spend epsilon=" + pureEps + " (try a larger epsilon, fewer"
                    + " iterations or a smaller metadata split)");

    // The paper: eps_vote = eps - eps_init, delta_vote = q * delta_g; T Gaussians compose to one
    // with multiplier sigma / sqrt(T); amplification eps_vote = ln(1 + q (e^eps_g - 1)).
    double q = c.samplingRate();
    double epsInit = 2 * epsSvtRun + histograms * epsHist;
    double epsVote = eps - epsInit;
    double paperSigma = Double.NaN;
    if (epsVote > 0) {
      double epsG = Math.log1p(Math.expm1(epsVote) / q);
      paperSigma =
          Calibration.analyticGaussianSigma(new DpBudget(epsG, Math.min(delta / q, 0.5)), 1.0) * Math.sqrt(rounds);
    }
    double epsGAtSigma = Gdp.epsilonAt(new GdpMu(Math.sqrt(rounds) / sigma), Math.min(delta / q, 0.5));
    double paperEps = epsInit + Math.log1p(q * Math.expm1(epsGAtSigma));
    return new VoteCalibration(sigma, paperSigma, paperEps);
  }

}
