package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.report.RunListener;
import dev.secpe.evolution.persist.CheckpointStore;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.prompt.Domain;
import dev.secpe.llm.prompt.PromptTemplates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The settings every method's builder shares. Each setter validates its value at once (an {@link
 * IllegalArgumentException} naming the field and the value); combinations are checked by {@code
 * build()}. A builder can be reused: {@code build()} copies what it holds. A setter called again
 * replaces the value it set before (the last call wins), so a shared base builder can be varied
 * one setting at a time.
 *
 * @param <B> the concrete builder
 */
public abstract class EvolutionBuilder<B extends EvolutionBuilder<B>> {

  /** The default of {@link #generationTimeout}: 10 minutes per batch and attempt. */
  public static final Duration DEFAULT_GENERATION_TIMEOUT = Duration.ofMinutes(10);

  /** The default of {@link #embeddingTimeout}: 2 minutes per batch and attempt. */
  public static final Duration DEFAULT_EMBEDDING_TIMEOUT = Duration.ofMinutes(2);

  /** The default of {@link #iterations}: T = 3 vote rounds. */
  public static final int DEFAULT_ITERATIONS = 3;

  /** The default of {@link #providerRetries}: 2, so 3 attempts in all. */
  public static final int DEFAULT_PROVIDER_RETRIES = 2;

  PrivateStore privateData;
  PublicCorpus publicData;
  TextGenerator generator;
  TextEmbedder embedder;
  int syntheticSize = 100;
  int variations = 3;
  int iterations = DEFAULT_ITERATIONS;
  long seed = 0;
  GenerationParams generation = GenerationParams.defaults();
  double maskProbability = 0.5;
  VoteGeometry voteGeometry = VoteGeometry.CENTRED;
  boolean allowDuplicates;
  PromptTemplates templates = PromptTemplates.defaults(Domain.REVIEWS);
  LabelSet labels;
  Path checkpointDir;
  boolean resume;
  PrivacyGuard guard = PrivacyGuard.localOnly();
  NoiseSource noise;
  RunListener listener = event -> {};
  boolean nonPrivate;
  Duration generationTimeout = DEFAULT_GENERATION_TIMEOUT;
  Duration embeddingTimeout = DEFAULT_EMBEDDING_TIMEOUT;
  int providerRetries = DEFAULT_PROVIDER_RETRIES;
  PrivacyJournal journal;
  /** The settings given explicitly (so that a method can refuse those it does not use). */
  final Set<String> given = new TreeSet<>();

  EvolutionBuilder() {}

  /**
   * The shared settings as they stand, for a log line or a debugger: the data as record counts
   * (a store that is not in memory as "a store"), the providers by name, the numbers; never a
   * record's text. The method's own settings (its budget) are not shown.
   */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    if (privateData != null) {
      parts.add("privateData=" + privateData.inMemory().map(d -> d.size() + " records").orElse("a store"));
    }
    if (publicData != null) {
      parts.add("publicData=" + publicData.size() + " records");
    }
    if (generator != null) {
      parts.add("generator=" + generator.name());
    }
    if (embedder != null) {
      parts.add("embedder=" + embedder.name());
    }
    if (labels != null) {
      parts.add("labels=" + labels);
    }
    parts.add("syntheticSize=" + syntheticSize);
    parts.add("iterations=" + iterations);
    parts.add("variations=" + variations);
    parts.add("seed=" + seed);
    parts.add("voteGeometry=" + voteGeometry);
    if (nonPrivate) {
      parts.add("nonPrivate");
    }
    if (checkpointDir != null) {
      parts.add("checkpoint=" + checkpointDir + (resume ? " (resume)" : ""));
    }
    Class<?> outer = getClass().getEnclosingClass();
    return (outer == null ? getClass().getSimpleName() : outer.getSimpleName() + ".Builder")
        + "{" + String.join(", ", parts) + "}";
  }

  abstract B self();

  /** The private records (required). Their text reaches only the embedder. */
  public B privateData(PrivateDataset data) {
    this.privateData = PrivateStore.inMemory(Objects.requireNonNull(data, "privateData"));
    return self();
  }

  /**
   * The private records, wherever they live (alternative to {@link #privateData}): for example
   * {@code secpe-spark}'s store, whose records stay on a cluster's executors. The run does not
   * close the store.
   *
   * @throws IllegalArgumentException if the store is empty
   */
  public B privateStore(PrivateStore store) {
    Objects.requireNonNull(store, "privateStore");
    if (store.size() == 0) {
      throw new IllegalArgumentException("privateStore must not be empty, got 0 records");
    }
    this.privateData = store;
    return self();
  }

  /** Public text (used to train nothing private: public clusters, metadata candidates). */
  public B publicData(PublicCorpus data) {
    this.publicData = Objects.requireNonNull(data, "publicData");
    return self();
  }

  /** The text generator (required). It never receives private text. */
  public B generator(TextGenerator generator) {
    this.generator = Objects.requireNonNull(generator, "generator");
    return self();
  }

  /** The embedder (required). A REMOTE one also needs {@link #allowRemoteEmbedding()}. */
  public B embedder(TextEmbedder embedder) {
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    return self();
  }

  /**
   * N_syn, the number of synthetic texts to produce (default 100; at most {@link
   * SizeLimits#MAX_SYNTHETIC_SIZE}).
   */
  public B syntheticSize(int n) {
    this.syntheticSize = SizeLimits.check("syntheticSize", n, SizeLimits.MAX_SYNTHETIC_SIZE);
    return self();
  }

  /**
   * L, variations per survivor each round (default 3; at most {@link SizeLimits#MAX_VARIATIONS}).
   */
  public B variations(int l) {
    this.variations = SizeLimits.check("variations", l, SizeLimits.MAX_VARIATIONS);
    given.add("variations");
    return self();
  }

  /**
   * T, the number of vote rounds (default {@value #DEFAULT_ITERATIONS}; at most {@link
   * SizeLimits#MAX_ITERATIONS}).
   */
  public B iterations(int t) {
    this.iterations = SizeLimits.check("iterations", t, SizeLimits.MAX_ITERATIONS);
    given.add("iterations");
    return self();
  }

  /** Base seed of generation and sampling choices (never of privacy noise). */
  public B seed(long seed) {
    this.seed = seed;
    return self();
  }

  /** Sampling parameters for the generator (default temperature 1.2, 448 tokens). */
  public B generation(GenerationParams params) {
    this.generation = Objects.requireNonNull(params, "generation");
    return self();
  }

  /** Fill-in mask probability (default 0.5, the papers use 0.5-0.6). */
  public B maskProbability(double p) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("maskProbability must be in (0, 1), got maskProbability=" + p);
    }
    this.maskProbability = p;
    given.add("maskProbability");
    return self();
  }

  /**
   * How nearest candidates are measured in every vote (default {@link VoteGeometry#CENTRED}:
   * cosine after removing the candidates' mean, which stops generic "hub" candidates from
   * collecting votes; {@link VoteGeometry#COSINE} is the papers' rule). No privacy effect: see
   * {@link VoteGeometry}.
   */
  public B voteGeometry(VoteGeometry geometry) {
    this.voteGeometry = Objects.requireNonNull(geometry, "voteGeometry");
    given.add("voteGeometry");
    return self();
  }

  /**
   * Whether a population, and so the output, may hold one text twice (default false). By default a
   * generated text identical to one already in the population is asked for again with another seed
   * (at most eight more times) and left out if it stays a copy: a copy adds no candidate, and in a
   * selection that takes the nearest candidates it crowds out distinct ones. Post-processing of
   * synthetic text only: no privacy effect.
   */
  public B allowDuplicates(boolean allow) {
    this.allowDuplicates = allow;
    return self();
  }

  /** Prompt templates (default: the reviews domain). */
  public B templates(PromptTemplates templates) {
    this.templates = Objects.requireNonNull(templates, "templates");
    return self();
  }

  /**
   * The label set of labelled private data: declared public (names and proportions) or to be
   * released through a noisy histogram charged to the ledger.
   */
  public B labels(LabelSet labels) {
    this.labels = Objects.requireNonNull(labels, "labels");
    return self();
  }

  /**
   * The files a run writes in its {@link #checkpoint(Path) checkpoint directory}: the checkpoint
   * and its lock.
   */
  public static final List<String> CHECKPOINT_FILES = List.of(CheckpointStore.FILE, CheckpointStore.LOCK);

  /** Checkpoint after every release and round into this directory ({@link #CHECKPOINT_FILES}). */
  public B checkpoint(Path dir) {
    this.checkpointDir = Objects.requireNonNull(dir, "checkpoint");
    return self();
  }

  /** Continue from the checkpoint directory's checkpoint, reusing every release drawn there. */
  public B resume(boolean resume) {
    this.resume = resume;
    return self();
  }

  /**
   * Records every release in {@code journal} before its noise is drawn, holds the dataset's journal
   * locked for the run, checks a checkpoint to resume from against it and refuses releases past the
   * dataset's lifetime budget (see {@link PrivacyJournal}). Default: no journal (the run accounts
   * its own releases only); {@code bin/secpe run} always keeps one.
   */
  public B journal(PrivacyJournal journal) {
    this.journal = Objects.requireNonNull(journal, "journal");
    return self();
  }

  /** Allows private text to reach a REMOTE embedder (off by default). */
  public B allowRemoteEmbedding() {
    this.guard = guard.withRemoteEmbeddingAllowed();
    return self();
  }

  /** The privacy guard as a whole (default: local services only). */
  public B guard(PrivacyGuard guard) {
    this.guard = Objects.requireNonNull(guard, "guard");
    return self();
  }

  /**
   * Where privacy noise comes from (default {@link NoiseSources#secure()}). A source that is not
   * private ({@link NoiseSource#isPrivate()}) makes the report say the run is not private.
   */
  public B noise(NoiseSource noise) {
    this.noise = Objects.requireNonNull(noise, "noise");
    return self();
  }

  /**
   * A non-private baseline (the papers' r/p = infinity column): no noise, nothing charged, no
   * budget needed. Its report says that nothing is protected.
   */
  public B nonPrivate() {
    this.nonPrivate = true;
    return self();
  }

  /**
   * How long one batch of generation requests (at most 256) may take, per attempt, before it is
   * cancelled and tried again ({@link #providerRetries}); then the run stops with a {@link
   * dev.secpe.llm.ProviderFault} naming the generator. The last checkpoint stays resumable.
   *
   * <p>Default {@link #DEFAULT_GENERATION_TIMEOUT}, 10 minutes: an OpenAI-compatible service
   * answering 16 requests at a time in 30 s each needs 8 minutes for a full batch; with the default
   * retries a generator that never answers stops the run after 30 minutes. Raise it for a slow
   * local model, lower it for a fast one.
   */
  public B generationTimeout(Duration timeout) {
    this.generationTimeout = positive("generationTimeout", timeout);
    return self();
  }

  /**
   * How long one batch of texts (at most 128) may take to embed, per attempt, before it is
   * cancelled and tried again ({@link #providerRetries}); then the run stops with a {@link
   * dev.secpe.llm.ProviderFault} naming the embedder.
   *
   * <p>Default {@link #DEFAULT_EMBEDDING_TIMEOUT}, 2 minutes (the in-process MiniLM embeds a batch
   * in seconds on two cores): an embedder that never answers stops the run after 6 minutes with
   * the default retries.
   */
  public B embeddingTimeout(Duration timeout) {
    this.embeddingTimeout = positive("embeddingTimeout", timeout);
    return self();
  }

  /**
   * How many times a batch is tried again after a timeout or a {@link
   * dev.secpe.llm.ProviderException.Retryable} failure (default {@link #DEFAULT_PROVIDER_RETRIES}). Retries resend public or
   * synthetic text to the generator and the same texts to the embedder: no privacy cost.
   */
  public B providerRetries(int retries) {
    if (retries < 0) {
      throw new IllegalArgumentException("providerRetries must be >= 0, got providerRetries=" + retries);
    }
    this.providerRetries = retries;
    return self();
  }

  private static Duration positive(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + name + "=" + d);
    }
    return d;
  }

  /** Receives progress events. */
  public B listener(RunListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return self();
  }

  /**
   * An (epsilon, delta) budget the Gaussian mechanisms can meet: both strictly positive. The
   * message names the method and both values.
   */
  static DpBudget requireApproximateDp(String method, DpBudget budget) {
    Objects.requireNonNull(budget, "budget");
    if (!(budget.epsilon() > 0) || !(budget.delta() > 0)) {
      throw new IllegalArgumentException(
          method + " needs epsilon > 0 and delta > 0, got epsilon=" + budget.epsilon() + " delta=" + budget.delta());
    }
    return budget;
  }

  /**
   * The method's own required settings that are not set, each as "name (how to set it)", so that
   * {@link #settings()} names every missing setting in one message.
   */
  List<String> missingOwn() {
    return List.of();
  }

  /**
   * The budget rule every method shares, for its {@link #missingOwn()}: a private run needs a
   * budget, named with the setters that give it ({@code setters}, e.g. "budget(DpBudget)").
   */
  List<String> budgetMissing(@Nullable Object budget, String setters) {
    return budget == null && !nonPrivate ? List.of("budget (" + setters + " or nonPrivate())") : List.of();
  }

  /** The other half of that rule, for a method's {@code build()}: a non-private run spends none. */
  void refuseBudgetWhenNonPrivate(@Nullable Object budget) {
    if (budget != null && nonPrivate) {
      throw new IllegalStateException("a budget and nonPrivate() conflict: a non-private run spends none");
    }
  }

  /**
   * Refuses a store that keeps the records outside this JVM, for a method that needs their text in
   * process; call after {@link #settings()}.
   */
  void requireInMemory(String method, String why) {
    if (privateData.inMemory().isEmpty()) {
      throw new IllegalStateException(
          method + " needs the private records in this JVM (" + why + "): give them with privateData(...);"
              + " " + privateData + " runs SecPE and Aug-PE");
    }
  }

  /**
   * Refuses the settings among {@code unused} that were given explicitly: a method must not
   * silently accept a setting it ignores.
   */
  void refuseUnused(String method, String why, String... unused) {
    List<String> set = new ArrayList<>();
    for (String u : unused) {
      if (given.contains(u)) {
        set.add(u);
      }
    }
    if (!set.isEmpty()) {
      throw new IllegalStateException(
          method + " does not use " + String.join(", ", set) + " (" + why + "); remove " + (set.size() == 1 ? "it" : "them"));
    }
  }

  /**
   * A round's candidates as a multiple of its survivors, for {@link SizeLimits#candidates}: L + 1
   * by default (the survivors and their variations).
   */
  long candidatesPerSurvivor() {
    return variations + 1L;
  }

  /** Checks what every method requires and builds the shared settings. */
  EvolutionSettings settings() {
    List<String> missing = new ArrayList<>();
    if (privateData == null) {
      missing.add("privateData");
    }
    if (generator == null) {
      missing.add("generator");
    }
    if (embedder == null) {
      missing.add("embedder");
    }
    missing.addAll(missingOwn());
    if (!missing.isEmpty()) {
      throw new IllegalStateException("required settings missing: " + String.join(", ", missing));
    }
    SizeLimits.candidates(syntheticSize, candidatesPerSurvivor(), iterations);
    guard.checkEmbedder(embedder.name(), embedder.locality());
    if (resume && checkpointDir == null) {
      throw new IllegalStateException("resume(true) requires checkpoint(dir)");
    }
    if (nonPrivate && noise != null) {
      throw new IllegalStateException("nonPrivate() and noise(...) conflict: a non-private run draws no noise");
    }
    if (privateData.isLabelled() && labels == null) {
      throw new IllegalStateException(
          "the private records are labelled: declare the label set with labels(LabelSet)");
    }
    return new EvolutionSettings(
        syntheticSize,
        variations,
        iterations,
        seed,
        generation,
        maskProbability,
        voteGeometry,
        templates,
        Optional.ofNullable(labels),
        Optional.ofNullable(checkpointDir),
        resume,
        guard,
        nonPrivate ? new PrivacyMode.NonPrivate() : new PrivacyMode.Private(noise == null ? NoiseSources.secure() : noise),
        listener,
        generationTimeout,
        embeddingTimeout,
        providerRetries,
        allowDuplicates,
        Optional.ofNullable(journal));
  }
}
