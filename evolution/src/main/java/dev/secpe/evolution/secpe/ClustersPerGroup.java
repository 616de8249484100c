package dev.secpe.evolution.secpe;

import dev.secpe.core.Label;
import dev.secpe.core.PublicRecord;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * How many clusters each label group gets, and on which public records: public facts only (the
 * public corpus, K, N_syn and, in the split, how many records hold no secret, which removing the
 * records that hold one cannot change), so {@code SecPE.Builder.build()} checks a given K against
 * the public corpus before any private record is read.
 */
public final class ClustersPerGroup {

  private ClustersPerGroup() {}

  /**
   * The public rows of each label group (all public records in each group when none carries one of
   * the run's labels), checked to hold the clusters K asks of each group; public facts only, so
   * {@code SecPE.Builder.build()} runs it before any private record is read.
   *
   * @throws IllegalArgumentException naming K, the group and its size when a group is too small
   */
  public static int[][] publicRowsByGroup(int clusters, List<Label> labels, List<PublicRecord> pub) {
    int groups = Math.max(1, labels.size());
    boolean byLabel =
        !labels.isEmpty() && pub.stream().anyMatch(r -> r.label().isPresent() && labels.contains(r.label().get()));
    int[][] out = new int[groups][];
    for (int g = 0; g < groups; g++) {
      Optional<Label> label = labels.isEmpty() ? Optional.empty() : Optional.of(labels.get(g));
      out[g] = IntStream.range(0, pub.size()).filter(i -> !byLabel || pub.get(i).label().equals(label)).toArray();
    }
    if (clusters > 0) {
      requireFits(clusters, groupNames(labels), Arrays.stream(out).mapToInt(r -> r.length).toArray(),
          "its public set");
    }
    return out;
  }

  /**
   * K of one label group when the caller chose none: {@code min(ceil(N_syn / groups), base / 3)},
   * at least 1, where {@code base} is the number of records the group's clusters are built on
   * (public facts, and in the split mode the secret-free records, which are public data there): as
   * many representatives as survivors, as SecPE's paper scales K with N_syn, and at least three
   * records per cluster on average. On the bundled corpora at N_syn = 100 this is the K = 100 the
   * demo was tuned with; a bound of base / 10 (K = 83 and 59 on sotu and the e-mails) ended farther
   * from the private data (FID 0.0790 and 0.0807 against 0.0722 and 0.0722; docs/method-findings.md).
   */
  public static int autoClusters(int syntheticSize, int groups, int base) {
    int want = (int) Math.ceil(syntheticSize / (double) Math.max(1, groups));
    return Math.max(1, Math.min(want, base / 3));
  }

  /** K of one of {@code groups} label groups: the given K split evenly, or {@link #autoClusters}. */
  static int of(int clusters, int syntheticSize, int groups, int base) {
    return clusters > 0
        ? Math.max(1, (int) Math.ceil(clusters / (double) groups))
        : autoClusters(syntheticSize, groups, base);
  }

  /**
   * Refuses a K given by the caller that asks a label group for more clusters than it has records
   * to build them on ({@code bases[g]}), rather than lower it in silence: the caller chose K, and a
   * cluster of one record carries centre noise of 2R sigma per coordinate. The same rule in both
   * modes, on what each builds its clusters on ({@code what}): the plain mode's public set, the
   * split's public part (public facts, and the split's secret-free records, which removing the
   * records that hold a secret cannot change).
   */
  static void requireFits(int clusters, List<String> groupNames, int[] bases, String what) {
    int groups = bases.length;
    int kPerGroup = Math.max(1, (int) Math.ceil(clusters / (double) groups));
    int least = IntStream.of(bases).min().orElse(0);
    for (int g = 0; g < groups; g++) {
      if (kPerGroup > bases[g]) {
        throw new IllegalArgumentException(
            "clusters K=" + clusters + " asks for " + kPerGroup + " clusters in label group " + groupNames.get(g)
                + ", larger than " + what + " (" + bases[g] + " records); "
                + (least > 0 ? "give K <= " + (long) least * groups + (groups > 1 ? " (K is split evenly over the "
                    + groups + " label groups)" : "") + ", or " : "")
                + "leave K out to choose it per group from the data");
      }
    }
  }

  /** The name of each label group in messages and the report: its label, or "(all)". */
  static List<String> groupNames(List<Label> labels) {
    return labels.isEmpty() ? List.of("(all)") : labels.stream().map(Object::toString).toList();
  }
}
