package dev.secpe.evolution.persist;

import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rules of what a dataset has spent that a run's journal enforces and {@link
 * dev.secpe.evolution.PrivacyJournal} reports, written once.
 */
public final class Spending {

  private Spending() {}

  /**
   * Why SecPE releases cannot be composed secret by secret: they protected different numbers of
   * secrets, or sets named differently (each release names its secrets by a digest of their keyed
   * ids, {@link PrivacyCost.SecretMixture#secretSet()}), or some name their set and some, journalled
   * before releases named them, do not; a secret one run protected was then not shown to be the
   * one the other protected. Empty where they can.
   */
  public static Optional<String> notComposable(List<Release> releases) {
    Set<Integer> counts = new LinkedHashSet<>();
    Set<String> names = new LinkedHashSet<>();
    for (Release r : releases) {
      if (r.cost() instanceof PrivacyCost.SecretMixture m) {
        counts.add(m.secretCount());
        names.add(m.secretSet() == null ? UNNAMED : m.secretSet());
      }
    }
    if (counts.size() >= 2) {
      return Optional.of(
          "SecPE runs on this dataset protected different secret sets ("
              + counts.stream().map(String::valueOf).collect(Collectors.joining(" vs "))
              + " secrets): " + CANNOT_ADD);
    }
    if (names.size() >= 2) {
      return Optional.of(
          "SecPE runs on this dataset protected different secret sets (" + counts.iterator().next()
              + " secrets each, but not the same ones" + (names.contains(UNNAMED)
                  ? ", or not shown to be: some were journalled before SecPE named its secret sets" : "")
              + "): " + CANNOT_ADD);
    }
    return Optional.empty();
  }

  private static final String UNNAMED = "";

  private static final String CANNOT_ADD =
      "their (p, r) guarantees cannot be added, since a secret one run protected was"
          + " not protected by the other; each run's report gives its own guarantee, and the record-level"
          + " releases are totalled apart. Protect the same --secrets (SecPE.Builder.secrets) in every SecPE"
          + " run on a dataset to keep one total";

  /** Why a total with {@code unprotected} releases drawn with reproducible noise is unbounded. */
  public static String unboundedReason(int unprotected) {
    return unprotected + " release(s) on this dataset were drawn with reproducible (seeded) noise"
        + " (--reproducible-noise, NoiseSources.reproducibleForTests), which protects nothing: they count as"
        + " unbounded, so no finite total or lifetime budget holds for the dataset";
  }
}
