package dev.secpe.evolution.secpe;

import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.pld.PldOptions;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.clustering.SecretClustering;

/**
 * SecPE's privacy plan: one secret-clustering release per label group, once (or every round with
 * {@code reReleasePerRound}), limited to the (p, r) budget for every secret.
 *
 * <p>In the paper's mode the noise is solved by SECRETNOISE from which private records hold which
 * secret, so the plan fixes each release's id and mechanism and the ledger's per-secret limit
 * guards its cost when it is charged ({@link PrivacyPlan.SolvedFromData}). With a contribution cap
 * K ({@code secretCap}) sigma follows from (p, r, K) alone ({@link SecretNoise#cappedSigma}) and is
 * planned here: a secret's at most K sampled records, wherever their label groups, shift the
 * groups' releases together by at most {@code sqrt(2) K} in the noise's units, so the groups of a
 * round are one Gaussian release of sensitivity {@code sqrt(2) K}, charged with the first group
 * and covering the others (docs/math-decisions.md §9).
 */
public final class SecPEPlan {

  private SecPEPlan() {}

  /** The release id of label group {@code group}'s clustering in {@code round}. */
  public static String clustering(boolean labelled, int group, boolean reRelease, int round) {
    return "secpe/secret-clustering/" + (labelled ? "label-" + group : "all") + (reRelease ? "/round-" + round : "");
  }

  /**
   * The plan of a run of {@code config} over {@code labelGroups} declared labels (0: unlabelled).
   */
  public static PrivacyPlan of(SecPEOptions config, int labelGroups) {
    if (config.budget() == null) {
      return PrivacyPlan.nonPrivate();
    }
    boolean reRelease = config.reReleasePerRound();
    int rounds = reRelease ? config.settings().iterations() : 1;
    int groups = Math.max(1, labelGroups);
    boolean labelled = labelGroups > 0;
    PrivacyPlan.Builder b = PrivacyPlan.limitedToEverySecret(config.budget());
    int cap = config.secretCap();
    double sigma =
        cap > 0
            ? SecretNoise.cappedSigma(
                config.budget(), cap, rounds, SecretClustering.COUNT_AND_CENTRE_SHIFT, config.blowUpMethod(),
                PldOptions.defaults())
            : Double.NaN;
    for (int t = 0; t < rounds; t++) {
      String first = clustering(labelled, 0, reRelease, t);
      for (int g = 0; g < groups; g++) {
        String id = clustering(labelled, g, reRelease, t);
        if (cap == 0) {
          b.solvedFromData(id, SecretClustering.MECHANISM);
        } else if (g == 0) {
          b.calibrated(capped(id, sigma, cap, groups));
        } else {
          b.covered(id, first);
        }
      }
    }
    return b.build();
  }

  /** The capped mode's release: one Gaussian of sensitivity sqrt(2) K over all label groups. */
  private static Release capped(String id, double sigma, int cap, int groups) {
    double sensitivity = SecretClustering.COUNT_AND_CENTRE_SHIFT * cap;
    return new Release(
        id,
        SecretClustering.MECHANISM,
        "noisy cluster counts and centres of " + (groups == 1 ? "the" : "all " + groups) + " label group"
            + (groups == 1 ? "" : "s") + "; at most K=" + cap + " sampled records of any one secret",
        SecretClustering.COUNT_AND_CENTRE_SHIFT,
        sigma,
        new PrivacyCost.Gaussian(sigma / sensitivity));
  }

  /**
   * The sigma of the capped mode's releases (NaN in the paper's mode, whose sigma is solved later).
   */
  static double cappedSigma(PrivacyPlan plan) {
    for (PrivacyPlan.Step s : plan.steps()) {
      if (s instanceof PrivacyPlan.Calibrated c) {
        return c.release().noiseScale();
      }
    }
    return Double.NaN;
  }
}
