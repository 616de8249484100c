package dev.secpe.evolution.ctcl;

import dev.secpe.accounting.DpBudget;
import dev.secpe.evolution.EvolutionSettings;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What CTCL's steps read of a run's configuration, as plain values: the entry point ({@code
 * dev.secpe.evolution.CTCL}) builds them from its public, validated {@code Config}, so that
 * imports point one way, from the entry point to this package. The fields are the {@code Config}'s
 * of the same names.
 *
 * @param settings shared settings
 * @param budget the whole run's (epsilon, delta), null in a non-private run
 * @param topics K, public k-means topics
 * @param keywordsPerTopic keywords per topic
 * @param unclassifiedQuantile public quantile of own-centre cosine below which a document is
 *     unclassified
 * @param histogramSigma noise standard deviation on each histogram bin
 * @param clipNorm C
 * @param steps K
 * @param batchSize B, the expected batch
 * @param privateWeight the generator's weight of the private statistics
 */
public record CTCLOptions(
    EvolutionSettings settings,
    @Nullable DpBudget budget,
    int topics,
    int keywordsPerTopic,
    double unclassifiedQuantile,
    double histogramSigma,
    double clipNorm,
    int steps,
    int batchSize,
    double privateWeight) {

  /** Checks the references (the values were validated by the entry point's configuration). */
  public CTCLOptions {
    Objects.requireNonNull(settings, "settings");
  }
}
