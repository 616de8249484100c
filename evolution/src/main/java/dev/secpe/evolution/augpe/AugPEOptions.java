package dev.secpe.evolution.augpe;

import dev.secpe.accounting.GdpMu;
import dev.secpe.evolution.EvolutionSettings;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What Aug-PE's steps read of a run's configuration, as plain values: the entry point ({@code
 * dev.secpe.evolution.AugPE}) builds them from its public, validated {@code Config}, so that
 * imports point one way, from the entry point to this package. The fields are the {@code Config}'s
 * of the same names.
 *
 * @param settings the shared settings
 * @param totalMu the whole run's mu-GDP, null in a non-private run
 * @param budgetGivenAsSecret whether the budget came as (p, r)
 * @param prior the prior p used for the report's (p, r)
 * @param delta the delta used for the report's (epsilon, delta)
 * @param nearestNeighbours k, candidates each record votes for
 * @param threshold H: noisy counts below it become 0
 * @param selection how survivors are chosen from the votes
 */
public record AugPEOptions(
    EvolutionSettings settings,
    @Nullable GdpMu totalMu,
    boolean budgetGivenAsSecret,
    double prior,
    double delta,
    int nearestNeighbours,
    double threshold,
    Selection selection) {

  /** The entry point's {@code SelectionMode}, constant for constant. */
  public enum Selection {
    /** The top counts of each label. */
    RANK,
    /** A sample proportional to the positive part of the counts, without replacement. */
    PROBABILITY,
    /** Survivors allocated to lineages in proportion to their summed votes. */
    LINEAGE
  }

  /** Checks the references (the values were validated by the entry point's configuration). */
  public AugPEOptions {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(selection, "selection");
  }
}
