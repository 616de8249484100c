package dev.secpe.evolution.engine;

import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Provenance;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicTexts;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.EmbeddingStats;
import dev.secpe.core.report.Phase;
import dev.secpe.core.report.PhaseTimings;
import dev.secpe.core.report.RunEvent;
import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.evolution.PrivacyMode;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.VoteGeometry;
import dev.secpe.evolution.persist.Checkpoint;
import dev.secpe.evolution.persist.CheckpointStore;
import dev.secpe.evolution.persist.ReleaseStore;
import dev.secpe.evolution.persist.RunGuard;
import dev.secpe.evolution.provider.OneOffEmbedding;
import dev.secpe.evolution.provider.ProviderCalls;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.cache.CacheStats;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The evolution loop shared by every method: initial population, then for each round embed, vote,
 * select and (except after the last vote) vary. It checkpoints after every release and every round
 * and, on resume, serves every release already drawn from the checkpoint.
 */
public final class Engine {

  /** Requests sent to the generator at once; between batches the engine checks cancellation. */
  static final int GENERATION_BATCH = 256;

  /** Texts sent to the embedder at once. */
  static final int EMBEDDING_BATCH = 128;

  private final Method method;
  private final RunKind kind;
  private final EvolutionSettings settings;
  private final PrivateStore privateData;
  private final PublicCorpus publicData;
  private final TextGenerator generator;
  private final TextEmbedder embedder;
  private final String configDescription;
  private final AtomicBoolean cancelled;

  private final Supplier<CacheStats> cacheStats; // or null
  private long candidateLookups;
  private long candidateHits;
  private long candidateMisses;
  private long oneOffTexts;

  private final List<PhaseTimings> roundTimings = new ArrayList<>();
  private PhaseTimings current = PhaseTimings.ZERO;
  private int dimension = -1;

/** A run of {@code method} on these inputs, not started. */
  public Engine(
      Method method,
      RunKind kind,
      EvolutionSettings settings,
      PrivateStore privateData,
      PublicCorpus publicData,
      TextGenerator generator,
      TextEmbedder embedder,
      String methodDescription,
      AtomicBoolean cancelled,
      Supplier<CacheStats> cacheStats) {
    this.cacheStats = cacheStats;
    this.method = method;
    this.kind = Objects.requireNonNull(kind, "kind");
    this.settings = settings;
    this.privateData = privateData;
    this.publicData = publicData;
    this.generator = generator;
    this.embedder = embedder;
    this.configDescription =
        method.name()
            + "{"
            + methodDescription
            + "; "
            + describe(settings)
            + "; embedder="
            + embedder.name()
            + "/"
            + embedder.dimension()
            + "}";
    this.cancelled = cancelled;
    this.lengths = LengthRange.of(publicData).orElse(null);
  }

  /** The result of the loop before the report is assembled. */
  public record Outcome(
      List<SyntheticText> synthetic,
      RunContext context,
      List<PhaseTimings> rounds,
      int resumedFromRound,
      int releasesDrawn,
      int releasesReused,
      EmbeddingStats embedding,
      long copiesLeftOut) {}

  /** Texts sent to the embedder and the candidate cache, over the whole run. */
  private EmbeddingStats embeddingStats() {
    return new EmbeddingStats(
        oneOffTexts + candidateMisses,
        total(roundTimings).seconds(Phase.EMBEDDING) + current.seconds(Phase.EMBEDDING),
        candidateLookups,
        candidateHits);
  }

/** Runs it (or resumes it from its checkpoint): single use. */
  public Outcome run() {
    // The checkpoint directory's lock and the dataset's privacy journal, held until the run ends.
    RunGuard guard = RunGuards.open(settings, method, kind, privateData);
    journalRepairs = guard.journalRepairs();
    try {
      Outcome out = run(guard);
      guard.end(null);
      return out;
    } catch (RuntimeException | Error e) {
      guard.end(e);
      throw e;
    } finally {
      guard.close();
    }
  }

  private Outcome run(RunGuard guard) {
    this.guard = guard;
    Optional<CheckpointStore> cps = guard.checkpoints();
    Checkpoint restored = null;
    if (cps.isPresent() && cps.get().exists()) {
      if (!settings.resume()) {
        throw new IllegalStateException(
            "a checkpoint already exists at "
                + cps.get().file()
                + "; resume from it or choose another checkpoint directory (a fresh run there would"
                + " draw its releases again)");
      }
      restored = cps.get().read();
      if (!restored.method().equals(method.name())) {
        throw new IllegalStateException(
            "checkpoint at "
                + cps.get().file()
                + " belongs to method '"
                + restored.method()
                + "', not '"
                + method.name()
                + "'");
      }
      if (!restored.inputs().equals(inputs())) {
        throw new IllegalStateException(
            "checkpoint at "
                + cps.get().file()
                + " was written for other input records ("
                + changedInputs(restored.inputs())
                + "); refusing to resume");
      }
      if (!restored.detector().equals(kind.detector())) {
        // Before the fingerprint, which names the detector by its display name only: say what changed.
        throw RunGuard.detectorChanged(cps.get().file(), restored.detector(), kind.detector());
      }
      if (restored.round() < 0 || restored.round() > settings.iterations()) {
        throw new IllegalStateException(
            "checkpoint at " + cps.get().file() + " is inconsistent: round " + restored.round()
                + " is outside [0, " + settings.iterations() + "]");
      }
      if (!restored.fingerprint().equals(fingerprint())) {
        throw new IllegalStateException(
            "checkpoint at "
                + cps.get().file()
                + " was written with a different configuration (or embedder); refusing to resume."
                + " Configuration now: "
                + configDescription);
      }
      if (!restored.noise().isEmpty() && !restored.noise().equals(noise())) {
        throw RunGuard.noiseSwitched(cps.get().file(), restored.noise(), noise());
      }
      restored = guard.resumed(restored);
      copiesLeftOut = restored.copiesLeftOut();
    } else if (settings.resume()) {
      throw new IllegalStateException(
          "resume requested but no checkpoint exists at " + cps.map(CheckpointStore::file).orElse(null));
    } else {
      guard.fresh();
    }

    // The method's ledger (limited to its budget where it knows it): a resumed run's releases are
    // charged into it again, so a checkpoint that holds more than the budget is refused here.
    PrivacyLedger ledger =
        restored == null ? method.plan().newLedger() : method.plan().newLedger().restore(restored.releases());
    int startRound = restored == null ? 0 : restored.round();
    List<SyntheticText> population = restored == null ? List.of() : restored.population();

    // What a release drawn now must be checkpointed with: the round it belongs to and its input.
    Position at = new Position(startRound, population);
    ReleaseStore store =
        new ReleaseStore(
            method.plan(),
            ledger,
            restored == null ? Map.of() : restored.values(),
            values -> cps.ifPresent(s -> guard.write(s, checkpoint(at.round, at.population, ledger, values))))
            .onCharged(r -> settings.listener().onEvent(new RunEvent.ReleaseCharged(r)))
            .witness(guard.witness());
    if (restored == null && guard.journalled()) {
      // Under a journal a checkpoint exists before the first draw: a write that fails later (a
      // full disk) leaves one to resume from, and the journal holds what was drawn since.
      cps.ifPresent(s -> guard.write(s, checkpoint(0, List.of(), ledger, Map.of())));
    }
    OneOffEmbedding oneOff = new OneOffEmbedding(embedder, settings.listener(), startRound);
    RunContext ctx = new RunContext(settings, privateData, publicData, oneOff, ledger, store);
    settings.listener().onEvent(new RunEvent.RunStarted(method.name(), settings.iterations(), startRound));

    // One-off private work, timed into round startRound: embedding the private records (the
    // embedding phase, with progress) and the method's one-off releases (the selection phase).
    long e0 = System.nanoTime();
    oneOff.expect(privateData.size());
    ctx.embedPrivate();
    oneOffTexts = privateData.size();
    if (method.needsPublicEmbeddings()) {
      oneOff.expect(publicData.size());
      ctx.publicUnit();
      oneOffTexts += publicData.size();
    }
    oneOff.expect(0);
    addTime(startRound, Phase.EMBEDDING, e0);
    long p0 = System.nanoTime();
    method.prepare(ctx);
    addTime(startRound, Phase.SELECTION, p0);

    TextGenerator generator = method.generator(this.generator);
    try {
      return loop(ctx, cps, at, ledger, store, startRound, population, generator);
    } finally {
      if (generator != this.generator) {
        generator.close();
      }
    }
  }

  private Outcome loop(
      RunContext ctx,
      Optional<CheckpointStore> cps,
      Position at,
      PrivacyLedger ledger,
      ReleaseStore store,
      int startRound,
      List<SyntheticText> population,
      TextGenerator generator) {
    if (population.isEmpty()) {
      // A fresh run, or one that stopped after its one-off releases but before round 0's input.
      SplittableRandom rng = Seeds.random(settings.seed(), "initial", 0);
      population = generateDistinct(generator, method.initial(ctx, rng), 0, 0, List.of());
      at.population = population;
      finishRound(cps, 0, population, ledger, store);
    }
    if (!method.evolves()) {
      // Everything was released in prepare(); the first population is the output.
      endRound(startRound, population.size());
      return new Outcome(
          population, ctx, List.copyOf(roundTimings), startRound, store.drawnHere(), store.reusedHere(),
          embeddingStats(), copiesLeftOut);
    }

    List<SyntheticText> survivors = List.of();
    for (int t = startRound; t < settings.iterations(); t++) {
      checkCancelled();
      at.round = t;
      at.population = population;
      settings.listener().onEvent(new RunEvent.RoundStarted(t, settings.iterations()));

      long t0 = System.nanoTime();
      EmbeddingMatrix unit = embedCandidates(population, t);
      addTime(t, Phase.EMBEDDING, t0);

      long t1 = System.nanoTime();
      double[] votes = method.vote(ctx, t, population, unit);
      int[] chosen = method.select(ctx, t, votes, population, unit);
      survivors = new ArrayList<>(chosen.length);
      for (int i : chosen) {
        survivors.add(population.get(i));
      }
      addTime(t, Phase.SELECTION, t1);
      settings.listener().onEvent(new RunEvent.SurvivorsSelected(t, survivors, votes));

      if (t == settings.iterations() - 1) {
        // The paper generates S_T after the last vote and then outputs the survivors: skip it.
        endRound(t, survivors.size());
        break;
      }
      SplittableRandom rng = Seeds.random(settings.seed(), "vary", t);
      List<Offspring> offspring = method.vary(ctx, t, survivors, rng);
      // Round t ends here: generating round t + 1's population is round t + 1's generation (its
      // time and progress belong to it, as round 0's are the initial population's).
      endRound(t, survivors.size() + offspring.size());
      List<SyntheticText> children = generateDistinct(generator, offspring, t + 1, t + 1, survivors);
      List<SyntheticText> next = new ArrayList<>(survivors);
      next.addAll(children);
      population = List.copyOf(next);
      finishRound(cps, t + 1, population, ledger, store);
    }
    return new Outcome(
        List.copyOf(survivors),
        ctx,
        List.copyOf(roundTimings),
        startRound,
        store.drawnHere(),
        store.reusedHere(),
        embeddingStats(),
        copiesLeftOut);
  }

  /** Mutable: where the loop is, for checkpoints written from inside a release. */
  private static final class Position {
    int round;
    List<SyntheticText> population;

    Position(int round, List<SyntheticText> population) {
      this.round = round;
      this.population = population;
    }
  }

  private void endRound(int round, int populationSize) {
    roundTimings.add(current);
    settings.listener().onEvent(new RunEvent.RoundFinished(round, current, populationSize));
    current = PhaseTimings.ZERO;
  }

  private void finishRound(
      Optional<CheckpointStore> cps,
      int round,
      List<SyntheticText> population,
      PrivacyLedger ledger,
      ReleaseStore store) {
    cps.ifPresent(
        s -> {
          guard.write(s, checkpoint(round, population, ledger, store.snapshot()));
          settings.listener().onEvent(new RunEvent.CheckpointWritten(round, s.file()));
        });
  }

  private Checkpoint checkpoint(
      int round, List<SyntheticText> population, PrivacyLedger ledger, Map<String, double[]> values) {
    List<Release> releases = ledger.releases();
    return new Checkpoint(
        method.name(), fingerprint(), inputs(), round, population, releases, values, guard.lineage(), copiesLeftOut,
        noise(), kind.detector());
  }

  /** Digest of the input records, private and public (computed once). */
  private String inputs() {
    if (inputsDigest == null) {
      inputsDigest = privateData.contentHash() + "/" + publicData.contentHash();
    }
    return inputsDigest;
  }

  private String inputsDigest;

  /**
   * Which inputs differ from those a checkpoint was written for, in words. The digests see the
   * records in order: the same records reordered or re-exported (as CSV), which the privacy
   * journal counts as one dataset, still differ for a checkpoint, whose population and releases
   * were computed on the records in their order.
   */
  private String changedInputs(String was) {
    String[] then = was.split("/", 2);
    String[] now = inputs().split("/", 2);
    boolean priv = !then[0].equals(now[0]);
    boolean pub = then.length < 2 || !then[1].equals(now[1]);
    String which = priv && pub ? "the private and the public records differ"
        : priv ? "the private records differ" : "the public records differ";
    return which + ", in content or in order: resume with the files, in the order and format, the run started with";
  }

  /** The locks and journal of the run in progress. */
  private RunGuard guard;

  /** What opening the privacy journal repaired (a torn last line), in words. */
  private List<String> journalRepairs = List.of();

  /**
   * What opening the privacy journal repaired before the run (a torn last line), in words; empty if
   * nothing.
   */
  public List<String> journalRepairs() {
    return journalRepairs;
  }

  /** The noise the run draws with, as its checkpoints and the privacy journal name it. */
  private String noise() {
    return settings.noise().isPrivate() ? Checkpoint.SECURE : Checkpoint.REPRODUCIBLE;
  }

  private String fingerprint() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(configDescription.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** Further requests for a generated text that copies one already in the population. */
  static final int DUPLICATE_RETRIES = 8;

  /**
   * Generates the offspring, each a text not in {@code existing} nor among the earlier offspring
   * (unless the settings allow duplicates): a copy is asked for again with another seed, up to
   * {@link #DUPLICATE_RETRIES} times, and left out if it stays a copy. Deterministic for a seed, so a
   * resumed run rebuilds the same population.
   */
  private List<SyntheticText> generateDistinct(
      TextGenerator generator, List<Offspring> offspring, int round, int idRound, List<SyntheticText> existing) {
    List<SyntheticText> out = new ArrayList<>(generate(generator, offspring, round, idRound, 0));
    if (settings.allowDuplicates()) {
      return out;
    }
    for (int attempt = 1; ; attempt++) {
      Set<String> seen = new HashSet<>();
      existing.forEach(s -> seen.add(s.text()));
      List<Integer> copies = new ArrayList<>();
      for (int i = 0; i < out.size(); i++) {
        if (!seen.add(out.get(i).text())) {
          copies.add(i);
        }
      }
      if (copies.isEmpty()) {
        return out;
      }
      if (attempt > DUPLICATE_RETRIES) {
        copiesLeftOut += copies.size();
        for (int k = copies.size() - 1; k >= 0; k--) {
          out.remove((int) copies.get(k));
        }
        return out;
      }
      List<Offspring> again = new ArrayList<>(copies.size());
      copies.forEach(i -> again.add(offspring.get(i)));
      List<SyntheticText> redone = generate(generator, again, round, idRound, attempt);
      for (int k = 0; k < copies.size(); k++) {
        SyntheticText old = out.get(copies.get(k));
        out.set(copies.get(k), new SyntheticText(old.id(), redone.get(k).text(), old.label(), old.provenance()));
      }
    }
  }

  /** The lengths generation requests are clipped to (null without public text). */
  private final LengthRange lengths;

  /** Generated texts left out because they stayed copies of the population's texts. */
  private long copiesLeftOut;

  /**
   * Generates the offspring; ids are "r{round}-{index}". {@code attempt} > 0 asks again for texts
   * that came out as copies, with seeds of their own.
   */
  private List<SyntheticText> generate(
      TextGenerator generator, List<Offspring> offspring, int round, int idRound, int attempt) {
    long start = System.nanoTime();
    GenerationParams base = settings.generation();
    List<SyntheticText> out = new ArrayList<>(offspring.size());
    SplittableRandom promptRng = Seeds.random(settings.seed(), "prompt", round);
    Map<String, Integer> perLabel = new HashMap<>();
    for (int from = 0; from < offspring.size(); from += GENERATION_BATCH) {
      checkCancelled();
      int to = Math.min(offspring.size(), from + GENERATION_BATCH);
      List<GenerationRequest> requests = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        // Seeded by (round, label, index within the label), not by the global index: when only the
        // label shares change (another noise draw of the label histogram, another method), the
        // offspring of a label keep their seeds, so a cached embedder sees the same texts again.
        String key = offspring.get(i).label().map(l -> l.name()).orElse("");
        int within = perLabel.merge(key, 1, Integer::sum) - 1;
        long seed = Seeds.derive(
            settings.seed(), "generate/" + round + "/" + key + (attempt == 0 ? "" : "/again" + attempt), within);
        GenerationTask task = offspring.get(i).task();
        requests.add(settings.templates().request(
            lengths == null ? task : lengths.clip(task), base.withSeed(seed), promptRng));
      }
      List<GenerationResult> results =
          ProviderCalls.call(
              generator.name(),
              requests.size(),
              settings.generationTimeout(),
              settings.providerRetries(),
              cancelled,
              () -> generator.generateAsync(requests));
      if (results == null || results.size() != requests.size()) {
        throw ProviderFault.rowCount(generator.name(), results == null ? 0 : results.size(), requests.size());
      }
      for (int i = from; i < to; i++) {
        GenerationResult result = results.get(i - from);
        if (result == null) {
          throw ProviderFault.missing(generator.name(), i - from);
        }
        if (result.text().isBlank()) {
          throw new IllegalStateException(
              "generator '" + generator.name() + "' returned a blank text for request " + i + " of round "
                  + round + " (" + offspring.get(i).operator() + "): a synthetic dataset cannot hold it;"
                  + " check the generator's configuration (model, max tokens, stop sequences)");
        }
      }
      for (int i = from; i < to; i++) {
        Offspring o = offspring.get(i);
        out.add(
            new SyntheticText(
                "r" + idRound + "-" + i,
                results.get(i - from).text().strip(),
                o.label(),
                new Provenance(round, o.parentIds(), o.operator())));
      }
      settings.listener().onEvent(new RunEvent.Progress(round, Phase.GENERATION, to, offspring.size()));
    }
    addTime(round, Phase.GENERATION, start);
    return out;
  }

  private EmbeddingMatrix embedCandidates(List<SyntheticText> population, int round) {
    int dim = embedder.dimension();
    if (dimension >= 0 && dim != dimension) {
      throw new IllegalStateException(
          "embedder '" + embedder.name() + "' changed dimension mid-run: " + dimension + " -> " + dim);
    }
    dimension = dim;
    List<EmbeddingMatrix> parts = new ArrayList<>();
    CacheStats before = cacheStats == null ? null : cacheStats.get();
    for (int from = 0; from < population.size(); from += EMBEDDING_BATCH) {
      checkCancelled();
      int to = Math.min(population.size(), from + EMBEDDING_BATCH);
      List<String> texts = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        texts.add(population.get(i).text());
      }
      // Row count, dimension, finite values and unit norm where the embedder claims it.
      parts.add(PublicTexts.embed(embedder, texts, texts.size()));
      settings.listener().onEvent(new RunEvent.Progress(round, Phase.EMBEDDING, to, population.size()));
    }
    candidateLookups += population.size();
    if (before != null) {
      CacheStats after = cacheStats.get();
      long hits = Math.min(population.size(), after.hits() - before.hits());
      candidateHits += hits;
      candidateMisses += population.size() - hits;
    } else {
      candidateMisses += population.size();
    }
    return EmbeddingMatrix.concat(parts).normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO);
  }

  private void addTime(int round, Phase phase, long startNanos) {
    Duration d = Duration.ofNanos(System.nanoTime() - startNanos);
    current = current.plus(phase, d);
    settings.listener().onEvent(new RunEvent.PhaseFinished(round, phase, d));
  }

  private void checkCancelled() {
    if (cancelled.get()) {
      throw new CancellationException("run cancelled; the last checkpoint (if any) can be resumed");
    }
  }

  /** Sum of the per-round timings. */
  public static PhaseTimings total(List<PhaseTimings> rounds) {
    PhaseTimings t = PhaseTimings.ZERO;
    for (PhaseTimings r : rounds) {
      t = t.plus(r);
    }
    return t;
  }

  /** The public part of the configuration, for checkpoint fingerprints and reports. */
  static String describe(EvolutionSettings s) {
    return "syntheticSize="
        + s.syntheticSize()
        + ", variations="
        + s.variations()
        + ", iterations="
        + s.iterations()
        + ", seed="
        + s.seed()
        + ", temperature="
        + s.generation().temperature()
        + ", topP="
        + s.generation().topP()
        + ", maxTokens="
        + s.generation().maxTokens()
        + ", maskProbability="
        + s.maskProbability()
        // Named only when it is not the papers' rule, so that a checkpoint written before the
        // geometry existed resumes with voteGeometry(COSINE), the rule it was written with.
        + (s.voteGeometry() == VoteGeometry.COSINE ? "" : ", voteGeometry=" + s.voteGeometry())
        + ", templates="
        + s.templates().domain()
        + ", labels="
        + s.labels().map(Object::toString).orElse("none")
        + (s.privacy() instanceof PrivacyMode.NonPrivate ? ", NON-PRIVATE" : "")
        + (s.allowDuplicates() ? ", allowDuplicates" : "");
  }
}
