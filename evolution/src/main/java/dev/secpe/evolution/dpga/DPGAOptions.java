package dev.secpe.evolution.dpga;

import dev.secpe.accounting.DpBudget;
import dev.secpe.evolution.EvolutionSettings;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What DPGA's steps read of a run's configuration, as plain values: the entry point ({@code
 * dev.secpe.evolution.DPGA}) builds them from its public, validated {@code Config}, so that
 * imports point one way, from the entry point to this package. The fields are the {@code Config}'s
 * of the same names.
 *
 * @param settings shared settings (syntheticSize is the elite count)
 * @param budget the whole run's (epsilon, delta), null in a non-private run
 * @param split the pure-DP fractions
 * @param shares operator shares
 * @param samplingRate Poisson sampling rate of the votes
 * @param freshSubsamplePerRound a new Poisson subsample every round
 * @param lengthBins length histogram bins
 * @param keywordCandidates public keyword candidates per label
 * @param keywordsPerPrompt keywords put in each generate prompt
 * @param keywordTemperature softmax temperature over noisy keyword votes
 * @param tauSample private records in the tau sample
 * @param tauStep tau increment when too few elites survive
 * @param similaritySuppression how elites are kept apart (the entry point's {@code DPGA.Suppression})
 */
public record DPGAOptions(
    EvolutionSettings settings,
    @Nullable DpBudget budget,
    Split split,
    Shares shares,
    double samplingRate,
    boolean freshSubsamplePerRound,
    int lengthBins,
    int keywordCandidates,
    int keywordsPerPrompt,
    double keywordTemperature,
    int tauSample,
    double tauStep,
    Suppression similaritySuppression) {

  /** How elites are kept apart (the entry point's {@code DPGA.Suppression}, documented there). */
  public enum Suppression {
    /** The paper's released threshold tau. */
    PAPER,
    /** Near-duplicates only, at {@link #NEAR_DUPLICATE_COSINE}. */
    NEAR_DUPLICATES,
    /** Votes alone. */
    OFF
  }

  /** The cosine from which {@link Suppression#NEAR_DUPLICATES} suppresses a candidate. */
  public static final double NEAR_DUPLICATE_COSINE = 0.95;

  /**
   * Fractions of epsilon given to the pure-DP parts (the entry point's {@code DPGA.Split}).
   *
   * @param svt the two AboveThreshold runs together
   * @param histograms the label, length and keyword histograms together
   * @param tau the similarity threshold
   */
  public record Split(double svt, double histograms, double tau) {}

  /**
   * Offspring of each operator as multiples of the elite count (the entry point's {@code
   * DPGA.Shares}).
   *
   * @param rewrite rewrite mutations
   * @param fill fill-in mutations
   * @param cross crossovers
   * @param generate fresh samples from the metadata
   */
  public record Shares(int rewrite, int fill, int cross, int generate) {
    /** Population size as a multiple of the elites: elites plus offspring. */
    public int total() {
      return 1 + rewrite + fill + cross + generate;
    }
  }

  /** Checks the references (the values were validated by the entry point's configuration). */
  public DPGAOptions {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(split, "split");
    Objects.requireNonNull(shares, "shares");
    Objects.requireNonNull(similaritySuppression, "similaritySuppression");
  }
}
