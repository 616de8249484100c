package dev.secpe.evolution.secpe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a SecPE run's report says of it in words: where it departs from the paper, what the split
 * and the clusters' K meant for this run, and the warning when the centre noise swamps the centres.
 * Public facts only, and facts that the records holding a secret cannot change (which records hold
 * none is unchanged when the records holding one secret are removed); how many secrets were found
 * and how many records are expected in the sample are statistics of the private data, released
 * without noise: they stay out of the (shareable) report.
 */
final class SecPENotes {

  private SecPENotes() {}

  /** The report's deviations of a private run with {@code config} over {@code groups}. */
  static List<String> deviations(SecPEOptions config, int iterations, @Nullable List<LabelGroup> groups) {
    List<String> out = new ArrayList<>();
    out.add(
        "Secret clustering releases counts and centres: the calibration uses the joint normalised"
            + " shift sqrt(2)*S_j (docs/math-decisions.md §4); the paper's Theorem 1 calibrates as if it were S_j.");
    if (config.secretCap() > 0) {
      out.add(
          "Contribution-bounded calibration (secretCap K=" + config.secretCap() + ", docs/math-decisions.md §9):"
              + " no LP; at most K records of any one secret are sampled (chosen by a keyed hash of each"
              + " record; records holding two or more secrets are not sampled, records holding none"
              + " always are), so sigma is the least with which a shift of sqrt(2)*K meets (p, r) and"
              + " depends on (p, r, K) alone.");
    } else {
      out.add(
          "SECRETNOISE maximises sum_i w_i (the paper's objective max w_i is a typo) and samples with"
              + " rho_i = w_i / max_k w_k; sigma is the least with B_j(p_j) <= r_j for the exact"
              + " Poisson-binomial mixture (" + config.blowUpMethod() + "), not the paper's single-Gaussian"
              + " approximation.");
      out.add(
          "rho and sigma are computed from which private records hold which secret (as in the paper,"
              + " whose proof treats them as given): removing a secret can change sigma, which this"
              + " report states without noise. secretCap(K) / --secret-cap K makes sigma depend on"
              + " (p, r, K) alone (docs/math-decisions.md §9).");
    }
    out.add(
        config.reReleasePerRound()
            ? "The representatives are re-released every round (T = " + iterations + " releases)."
            : "The representatives are released once and reused every round (docs/math-decisions.md §5): the cost does not grow with T.");
    if (config.shrinkRepresentatives()) {
      out.add(
          "The released centres are pulled back towards their public centres by the factor"
              + " |e_k|^2 / (|e_k|^2 + d (c_k sigma)^2) before use (post-processing with public"
              + " inputs; the paper uses the noisy centres as they are).");
    }
    out.add("Secrets were detected by '" + config.detector().name() + "'.");
    out.addAll(splitNotes(config, groups == null ? List.of() : groups));
    return out;
  }

  /** What the split mode and the clusters' K meant for this run. */
  private static List<String> splitNotes(SecPEOptions config, List<LabelGroup> groups) {
    List<String> out = new ArrayList<>();
    if (config.secretFreeAsPublic()) {
      out.add(
          "The paper's dataset split (secretFreeAsPublic): the private records in which the detector"
              + " found no secret were used without noise as SecPE's public part (the D_pub of"
              + " Algorithms 2 and 3): clustered with k-means and counted exactly"
              + (config.publicJoinsClusters() ? ", beside the public corpus" : "")
              + "; only the records holding a secret were sampled into the noisy shift. The"
              + " guarantee covers the named secrets only, not membership: a record without a"
              + " detected secret is released as public data would be, and a secret the detector"
              + " misses is released without noise.");
      long fellBack = groups.stream().filter(g -> g.secretFree.length == 0).count();
      if (fellBack > 0) {
        out.add(
            fellBack + " label group(s) had no private record without a secret; their"
                + " clusters were built on the public corpus instead.");
      }
      if (config.secretFreeVotes()) {
        out.add(
            "Secret-free votes (secretFreeVotes, not in the paper): every round each secret-free record"
                + " voted for its nearest candidate, exactly, and each representative's noisy count of"
                + " secret-holding records, max(0, n~_k - n_k), was spread over the candidates its"
                + " cluster's secret-free records voted for; the top of each label's histogram survived"
                + " (rank selection, as Aug-PE's).");
      }
    }
    if (groups.isEmpty()) {
      return out;
    }
    int[] asked = groups.stream().mapToInt(g -> g.clusters().asked()).toArray();
    if (config.clusters() == 0) {
      out.add(
          "K was chosen from the data: " + Arrays.toString(asked) + " clusters per label"
              + " group, min(ceil(N_syn / groups), base / 3) with base the records each group's"
              + " clusters were built on.");
    }
    if (groups.stream().anyMatch(g -> g.clusters().emptyDropped() > 0)) {
      out.add(droppedNote(groups));
    }
    return out;
  }

  /** What dropping the empty clusters did, per label group (public facts only). */
  private static String droppedNote(List<LabelGroup> groups) {
    List<String> where = new ArrayList<>();
    int[] kept = new int[groups.size()];
    for (LabelGroup g : groups) {
      LabelGroup.Clusters c = g.clusters();
      kept[g.index] = c.asked() - c.emptyDropped();
      if (c.emptyDropped() > 0) {
        where.add("label group " + g.name + ": " + c.asked() + " clusters, " + c.emptyDropped() + " of them empty");
      }
    }
    return "k-means could not give every cluster a record, the records behind them holding fewer distinct"
        + " embeddings than K (repeated texts, or texts the embedder maps to one vector): " + String.join("; ", where)
        + ". The empty clusters were dropped before the release (an empty cluster has no centre, and its centre"
        + " noise 2R/n_k no scale): " + Arrays.toString(kept) + " clusters per label group were released. The"
        + " clusters are built on public data only, so the release's noise and cost are unchanged.";
  }

  /**
   * The warning when the released centres' noise swamps them: the median over representatives of
   * {@code d (c_k sigma)^2 / |e_k|^2} above 1 (public quantities only).
   */
  static List<String> centreNoiseWarning(List<Double> centreNoiseToSignal, boolean shrink) {
    if (centreNoiseToSignal.isEmpty()) {
      return List.of();
    }
    double median = centreNoiseToSignal.stream().mapToDouble(Double::doubleValue).sorted()
        .skip(centreNoiseToSignal.size() / 2).findFirst().orElseThrow();
    if (!(median > 1)) {
      return List.of();
    }
    return List.of(String.format(Locale.ROOT,
        "The centre noise of SecPE's representatives has %.3g times the power of the centres"
            + " themselves (median over representatives; d (c_k sigma)^2 / |e_k|^2 with c_k = 2R/n_k):"
            + " the released centres point in nearly random directions%s. Fewer clusters (K) put more"
            + " public records in each and cut the centre noise; the noisy counts still steer the"
            + " survivors.",
        median,
        shrink
            ? ", so each falls back towards its public centre (shrinkRepresentatives)"
            : ", and shrinkRepresentatives(false) uses them as they are"));
  }
}
