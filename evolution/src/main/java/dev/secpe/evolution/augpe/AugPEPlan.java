package dev.secpe.evolution.augpe;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.Sensitivity;

/**
 * Aug-PE's privacy plan: the label histogram (when the label proportions are released rather than
 * declared) and one vote histogram per round, every one a sensitivity-1 Gaussian with the same
 * multiplier sigma, so that n releases compose to the budget's mu exactly: {@code mu = sqrt(n) /
 * sigma} (Dong, Roth, Su 2019, Cor. 3.3), solved by {@link Calibration#gdpNoise} on the safe side.
 */
public final class AugPEPlan {

  /** The release id of the label histogram. */
  public static final String LABELS = "augpe/labels";

  private AugPEPlan() {}

  /** The release id of round {@code round}'s vote histogram. */
  public static String votes(int round) {
    return "augpe/round-" + round + "/votes";
  }

  /**
   * The plan of a run of {@code config} over {@code labelGroups} declared labels (0 when the data
   * is unlabelled), whose proportions are released when {@code labelsReleased}.
   */
  public static PrivacyPlan of(AugPEOptions config, int labelGroups, boolean labelsReleased) {
    if (config.totalMu() == null) {
      return PrivacyPlan.nonPrivate();
    }
    int rounds = config.settings().iterations();
    int releases = rounds + (labelsReleased ? 1 : 0);
    double sigma = Calibration.gdpNoise(config.totalMu(), releases).sigma();
    PrivacyPlan.Builder b = PrivacyPlan.limitedTo(config.totalMu());
    if (labelsReleased) {
      b.calibrated(Release.gaussian(LABELS, "label histogram over " + labelGroups + " labels", sigma, Sensitivity.l2(1.0)));
    }
    for (int t = 0; t < rounds; t++) {
      b.calibrated(Release.gaussian(
          votes(t),
          "nearest-neighbour vote histogram over the round's candidates (k=" + config.nearestNeighbours() + ")",
          sigma,
          Sensitivity.l2(1.0)));
    }
    return b.build();
  }

  /** The noise multiplier of every release of {@code plan} (0 for a non-private plan). */
  static double sigma(PrivacyPlan plan) {
    return plan.isPrivate() ? plan.calibratedReleases().get(0).noiseScale() : 0.0;
  }
}
