package dev.secpe.evolution.dpga;


import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.ledger.PlanCalibrator;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.evolution.dpga.DPGAOptions.Split;
import java.util.ArrayList;
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

  /** The release id of the SVT for the maximum length. */
  public static final String LENGTH_MAX = "dpga/length-max";

  /** The release id of the SVT for the minimum length. */
  public static final String LENGTH_MIN = "dpga/length-min";

  /** The release id of the length histogram. */
  public static final String LENGTH_HISTOGRAM = "dpga/length-histogram";

  /** The release id of the label histogram (when the proportions are released). */
  public static final String LABELS = "dpga/labels";

  /** The release id of the keyword vote histogram. */
  public static final String KEYWORDS = "dpga/keywords";

  /** The release id of the similarity threshold tau. */
  public static final String TAU = "dpga/tau";

  /**
   * The release id of the one Poisson subsample of all T vote rounds (when not drawn per round):
   * its charge covers every round's votes.
   */
  public static final String VOTES = "dpga/votes";

  /** The release id of round {@code round}'s votes. */
  public static String votes(int round) {
    return "dpga/round-" + round + "/votes";
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

  /** The split of a private run's budget. */
  public static Metadata metadata(DPGAOptions c, boolean labelsReleased) {
    double eps = c.budget().epsilon();
    Split split = c.split();
    return new Metadata(split.svt() * eps / 2, split.histograms() * eps / 3, labelsReleased, split.tau() * eps);
  }

  /** Whether a run over the declared {@code labels} releases their proportions. */
  public static boolean labelsReleased(DPGAOptions c, List<Label> labels) {
    return !labels.isEmpty() && c.settings().labels().orElseThrow() instanceof LabelSet.ToBeReleased;
  }

  /**
   * The noise scales a run draws with: the AboveThreshold scales, the Laplace scale of the
   * histograms, the sensitivity and Laplace scale of tau, and the vote multiplier. All zero for a
   * non-private run ({@link #NONE}), which draws no noise.
   */
  public record Scales(
      Calibration.SvtScales svt, double histogram, double tauSensitivity, double tau, double votes) {}

  /** The scales of a non-private run. */
  public static final Scales NONE = new Scales(new Calibration.SvtScales(0, 0, 0), 0, 0, 0, 0);

  /** The scales of a private run with vote multiplier {@code sigma}. */
  public static Scales scales(DPGAOptions c, Metadata m, double sigma) {
    double tauSensitivity = tauSensitivity(c.tauSample());
    return new Scales(
        Calibration.aboveThreshold(m.epsSvtRun(), 1.0),
        Calibration.laplaceScale(m.epsHist(), 1.0),
        tauSensitivity,
        Calibration.laplaceScale(m.epsTau(), tauSensitivity),
        sigma);
  }

  /**
   * Every release a private run charges, in order, with vote multiplier {@code sigma}: the two
   * AboveThreshold runs, the Laplace histograms (length, labels when released, keywords), tau (with
   * the paper's suppression only), and the votes: one subsampled Gaussian of T rounds on one subsample, or T fresh ones.
   */
  public static List<Release> releases(DPGAOptions c, Metadata m, int labelGroups, double sigma) {
    Scales sc = scales(c, m, sigma);
    double b = sc.histogram();
    List<Release> out = new ArrayList<>();
    out.add(new Release(LENGTH_MAX, "AboveThreshold", "maximum length in words (SVT)",
        1.0, sc.svt().queryScale(), new PrivacyCost.PureDp(m.epsSvtRun())));
    out.add(new Release(LENGTH_MIN, "AboveThreshold", "minimum length in words (SVT)",
        1.0, sc.svt().queryScale(), new PrivacyCost.PureDp(m.epsSvtRun())));
    out.add(new Release(LENGTH_HISTOGRAM, "Laplace", "length histogram, " + c.lengthBins() + " bins",
        1.0, b, new PrivacyCost.Laplace(b, 1.0)));
    if (m.labelsReleased()) {
      out.add(new Release(LABELS, "Laplace", "label histogram over " + labelGroups + " labels",
          1.0, b, new PrivacyCost.Laplace(b, 1.0)));
    }
    out.add(new Release(KEYWORDS, "Laplace", "keyword vote histogram over the public keyword candidates",
        1.0, b, new PrivacyCost.Laplace(b, 1.0)));
    if (c.similaritySuppression() == DPGAOptions.Suppression.PAPER) {
      out.add(new Release(TAU, "Laplace",
          "similarity threshold tau: mean off-diagonal cosine of " + c.tauSample() + " private records",
          sc.tauSensitivity(), sc.tau(), new PrivacyCost.Laplace(sc.tau(), sc.tauSensitivity())));
    }
    int rounds = c.settings().iterations();
    double q = c.samplingRate();
    if (c.freshSubsamplePerRound()) {
      for (int t = 0; t < rounds; t++) {
        out.add(new Release(votes(t), "Poisson-subsampled Gaussian",
            "nearest-neighbour votes of a fresh q=" + q + " Poisson sample over the round's candidates",
            1.0, sigma, new PrivacyCost.SubsampledGaussian(sigma, q, 1)));
      }
    } else {
      out.add(new Release(VOTES, "Poisson-subsampled Gaussian",
          rounds + " nearest-neighbour vote histograms on one q=" + q + " Poisson subsample",
          // A record is in all T histograms or in none: T Gaussians of multiplier sigma on one
          // subsample are one subsampled Gaussian of multiplier sigma / sqrt(T).
          1.0, sigma, new PrivacyCost.SubsampledGaussian(sigma / Math.sqrt(rounds), q, 1)));
    }
    return out;
  }

  /**
   * The plan of a run of {@code c} over the declared {@code labels} with its solved vote noise
   * (non-private when {@code c} has no budget): {@link #releases}, and with one subsample the T
   * vote rounds covered by its charge.
   */
  public static PrivacyPlan plan(DPGAOptions c, List<Label> labels, VoteCalibration v) {
    if (c.budget() == null) {
      return PrivacyPlan.nonPrivate();
    }
    Metadata m = metadata(c, labelsReleased(c, labels));
    PrivacyPlan.Builder b = PrivacyPlan.limitedTo(c.budget());
    releases(c, m, labels.size(), v.sigma()).forEach(b::calibrated);
    if (!c.freshSubsamplePerRound()) {
      for (int t = 0; t < c.settings().iterations(); t++) {
        b.covered(votes(t), VOTES);
      }
    }
    return b.build();
  }

  /**
   * The vote noise of a run: solved against the budget from the whole plan (metadata and votes),
   * at build(), before any private record is read; none for a non-private run.
   */
  public static VoteCalibration calibrate(DPGAOptions c, List<Label> labels) {
    if (c.budget() == null) {
      return new VoteCalibration(0.0, Double.NaN, Double.NaN);
    }
    return calibrateVotes(c, metadata(c, labelsReleased(c, labels)), labels.size());
  }

  /**
   * The least vote noise multiplier with which the PLD composition of every release stays within
   * the budget, found by {@link PlanCalibrator} (safe side, relative tolerance 1e-4).
   */
  public static VoteCalibration calibrateVotes(DPGAOptions c, Metadata m, int labelGroups) {
    double eps = c.budget().epsilon();
    double delta = c.budget().delta();
    int rounds = c.settings().iterations();
    double epsSvtRun = m.epsSvtRun();
    double epsHist = m.epsHist();
    int histograms = m.histograms();
    double pureEps = 2 * epsSvtRun + histograms * epsHist + m.epsTau();
    double sigma =
        PlanCalibrator.leastMultiplier(
            s -> releases(c, m, labelGroups, s),
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
