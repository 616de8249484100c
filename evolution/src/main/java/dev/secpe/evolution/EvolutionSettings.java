package dev.secpe.evolution;

import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.report.RunListener;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.prompt.PromptTemplates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings every method shares. Immutable; built and validated by the method builders.
 *
 * @param syntheticSize N_syn, the number of synthetic texts to produce (>= 1)
 * @param variations L, the variations generated per survivor each round (>= 1)
 * @param iterations T, the number of vote rounds (>= 1)
 * @param seed the base seed of every non-privacy random choice (generation, sampling order)
 * @param generation sampling parameters for the generator (the seed is set per request)
 * @param maskProbability the fill-in mask probability (Aug-PE, DPGA: 0.5)
 * @param voteGeometry how nearest candidates are measured in every vote (default {@link
 *     VoteGeometry#CENTRED}; {@link VoteGeometry#COSINE} is the papers' rule)
 * @param templates the prompt templates (defaults per domain: reviews, abstracts, e-mail)
 * @param labels the declared label set, required when the private records are labelled
 * @param checkpointDir where to checkpoint after every release and round, if anywhere
 * @param resume whether to continue from the checkpoint in {@code checkpointDir}
 * @param guard which remote services may see private text
 * @param privacy private (with where its noise comes from: secure unless a test source was set) or
 *     the non-private baseline
 * @param listener progress events
 * @param generationTimeout the longest one batch of generation requests may take, per attempt
 * @param embeddingTimeout the longest one batch of texts may take to embed, per attempt
 * @param providerRetries further attempts after a timeout or a retryable provider failure
 * @param allowDuplicates whether a population may hold one text twice (default false: a child
 *     identical to a text already in the population is asked for again, with another seed, up to
 *     eight more times, and left out if it stays a copy, so survivors and the
 *     output are distinct texts)
 * @param journal the privacy journal every release is recorded in before it is drawn, if any
 */
public record EvolutionSettings(
    int syntheticSize,
    int variations,
    int iterations,
    long seed,
    GenerationParams generation,
    double maskProbability,
    VoteGeometry voteGeometry,
    PromptTemplates templates,
    Optional<LabelSet> labels,
    Optional<Path> checkpointDir,
    boolean resume,
    PrivacyGuard guard,
    PrivacyMode privacy,
    RunListener listener,
    Duration generationTimeout,
    Duration embeddingTimeout,
    int providerRetries,
    boolean allowDuplicates,
    Optional<PrivacyJournal> journal) {

  /** Validates the combination. */
  public EvolutionSettings {
    Objects.requireNonNull(journal, "journal");
    Objects.requireNonNull(generationTimeout, "generationTimeout");
    Objects.requireNonNull(embeddingTimeout, "embeddingTimeout");
    if (generationTimeout.isNegative() || generationTimeout.isZero()
        || embeddingTimeout.isNegative() || embeddingTimeout.isZero()) {
      throw new IllegalArgumentException(
          "timeouts must be positive, got generationTimeout=" + generationTimeout + " embeddingTimeout=" + embeddingTimeout);
    }
    if (providerRetries < 0) {
      throw new IllegalArgumentException("providerRetries must be >= 0, got providerRetries=" + providerRetries);
    }
    if (syntheticSize < 1) {
      throw new IllegalArgumentException("syntheticSize must be >= 1, got syntheticSize=" + syntheticSize);
    }
    if (variations < 1) {
      throw new IllegalArgumentException("variations must be >= 1, got variations=" + variations);
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be >= 1, got iterations=" + iterations);
    }
    Objects.requireNonNull(generation, "generation");
    if (!(maskProbability > 0 && maskProbability < 1)) {
      throw new IllegalArgumentException(
          "maskProbability must be in (0, 1), got maskProbability=" + maskProbability);
    }
    Objects.requireNonNull(voteGeometry, "voteGeometry");
    Objects.requireNonNull(templates, "templates");
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(checkpointDir, "checkpointDir");
    if (resume && checkpointDir.isEmpty()) {
      throw new IllegalStateException("resume requires a checkpoint directory");
    }
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(privacy, "privacy");
    Objects.requireNonNull(listener, "listener");
  }

  /** Where privacy noise comes from ({@link PrivacyMode#noise()}). */
  public NoiseSource noise() {
    return privacy.noise();
  }

  /** The same settings with one round (for CTCL, which releases once and generates once). */
  EvolutionSettings oneRound() {
    return new EvolutionSettings(
        syntheticSize, variations, 1, seed, generation, maskProbability, voteGeometry, templates, labels,
        checkpointDir, resume, guard, privacy, listener, generationTimeout, embeddingTimeout,
        providerRetries, allowDuplicates, journal);
  }

}
