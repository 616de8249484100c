package dev.secpe.llm.embedded;

import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.ProviderException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * An in-process text generator that learns from PUBLIC text: an interpolated Kneser–Ney word
 * n-gram model (order 2 to 4), optionally per label (mixed with the global model), that implements
 * every evolution operator through {@link GenerationTask}:
 *
 * <ul>
 *   <li>{@link GenerationTask.Random}: a fresh sample, optionally conditioned on a label and on
 *       keywords (CTCL §3.4: every case variant of a keyword token gets its probability
 *       multiplied by {@link Builder#keywordBoost(double)} until used, and at least 5% of the
 *       candidate mass wherever it has followed the previous word in training; the words that
 *       most often follow a keyword get the square root of the boost), with its
 *       length steered towards {@code targetWords}.
 *   <li>{@link GenerationTask.FillIn}: Aug-PE's fill-in-the-blanks (and DPGA's fill mutation,
 *       appendix D.4): each token of the parent is masked with the given probability, the
 *       masked spans are lengthened or shortened at random so the word count moves to {@code
 *       targetWords}, and each span is re-sampled from the left context and importance-resampled
 *       by how well it leads into the words on its right.
 *   <li>{@link GenerationTask.Rewrite}: DPGA's rewrite, lighter: only words are masked, with
 *       probability {@link Builder#rewriteMaskProbability(double)}, and refilled with words only;
 *       length and punctuation kept, twice the proposals per span (context-appropriate
 *       substitutes).
 *   <li>{@link GenerationTask.Cross}: DPGA's cross: a prefix of one parent and a suffix of the
 *       other, cut at sentence (else phrase) boundaries so the child has about the parents'
 *       mean length; the first {@link Builder#bridgeWords(int)} tokens after the cut are re-sampled
 *       by the model to smooth the joint.
 * </ul>
 *
 * <p>It cannot follow instructions: it reads the request's {@link GenerationTask} and ignores the
 * rendered chat messages.
 *
 * <p>Deterministic: a request with {@code params.seed()} always gives the same text; a request
 * without one gets a seed derived from {@link Builder#seed(long)}, the number of the call on this
 * generator and its index in the call. Temperature, top-p (see {@code Sampler} for how the two act
 * on the rare-word tail), max tokens (word-level tokens) and stop sequences are honoured. A label
 * never seen in training falls back to the global model. Thread-safe; calls run on {@link
 * Builder#threads(int)} daemon threads.
 *
 * <p>Train it on public text only: the model memorises n-grams of what it is given. Private text
 * may enter only through {@link #fineTune}, which clips, subsamples and noises it (see there).
 */
public final class NgramTextGenerator extends LocalGenerator implements FineTunableGenerator {

  /** The provider and generator name. */
  public static final String NAME = "embedded-ngram";

  private static final int MAGIC = 0x53504e47; // "SPNG"
  private static final int FORMAT = 1;

  private final Trained trained;
  private final int threads;
  private final long seed;
  private final ExecutorService pool;
  private final AtomicLong calls = new AtomicLong();
  private volatile boolean closed;

  private NgramTextGenerator(Trained trained, int threads, long seed) {
    super(NAME);
    this.trained = trained;
    this.threads = threads;
    this.seed = seed;
    AtomicInteger counter = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "embedded-ngram-" + counter.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** A builder; call {@link Builder#train(List)} or {@link Builder#load(Path)} before building. */
  public static Builder builder() {
    return new Builder();
  }

  /** The n-gram order. */
  public int order() {
    return trained.global.order;
  }

  /** Number of word types, including the three reserved tokens. */
  public int vocabularySize() {
    return trained.vocabulary.size();
  }

  /** The labels seen in training, sorted. */
  public List<String> labels() {
    return List.copyOf(trained.labels.keySet());
  }

  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    if (closed) {
      throw new IllegalStateException("generator is closed");
    }
    List<GenerationRequest> copy = List.copyOf(requests);
    int n = copy.size();
    long call = calls.getAndIncrement();
    GenerationResult[] results = new GenerationResult[n];
    CompletableFuture<List<GenerationResult>> out = new CompletableFuture<>();
    if (n == 0) {
      out.complete(List.of());
      return out;
    }
    AtomicBoolean cancelled = new AtomicBoolean();
    int chunk = Math.max(1, (n + threads * 4 - 1) / (threads * 4));
    List<CompletableFuture<Void>> parts = new ArrayList<>();
    for (int from = 0; from < n; from += chunk) {
      int start = from;
      int end = Math.min(n, from + chunk);
      parts.add(
          CompletableFuture.runAsync(
              () -> {
                for (int i = start; i < end && !cancelled.get(); i++) {
                  GenerationRequest r = copy.get(i);
                  results[i] = generateOne(r, requestSeed(r.params(), call, i));
                }
              },
              pool));
    }
    CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0]))
        .whenComplete(
            (v, e) -> {
              if (e != null) {
                Throwable cause = e instanceof CompletionException && e.getCause() != null
                    ? e.getCause() : e;
                out.completeExceptionally(
                    cause instanceof ProviderException
                        ? cause
                        : new ProviderException.Permanent(
                            "embedded-ngram generation failed: " + cause.getClass().getName(),
                            cause));
              } else {
                out.complete(Collections.unmodifiableList(Arrays.asList(results)));
              }
            });
    out.whenComplete(
        (v, e) -> {
          if (out.isCancelled()) {
            cancelled.set(true);
          }
        });
    return out;
  }

  /**
   * DP fine-tuning (CTCL §3.3) of the global model: each document's highest-order n-gram counts,
   * restricted to this (public) model's n-grams and clipped to L2 norm C, are summed over K
   * Poisson-sampled steps with N(0, (zC)^2) noise per coordinate and step; the new model's counts
   * are {@code public + round(privateWeight * max(0, noisy sum / (q K)))}, so {@code
   * privateWeight} = 1 adds the estimated clipped private counts once. One document changes a
   * step's sum by at most C in L2 (derivation in {@code DpFineTuning}), so the whole call is the
   * Poisson-subsampled Gaussian with multiplier z, rate q = B/N and K steps; the caller charges
   * it before calling. The examples' keywords are not learnt (an n-gram model has no condition
   * input): CTCL conditions generation on them through {@link GenerationTask.Random#keywords()}.
   * Per-label models and sampling settings are kept as they are.
   */
  @Override
  public NgramTextGenerator fineTune(List<Example> examples, DpSgdSettings settings, DpNoise noise) {
    Objects.requireNonNull(examples, "examples");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(noise, "noise");
    if (examples.isEmpty()) {
      throw new IllegalArgumentException("examples must not be empty, got 0 examples");
    }
    settings.samplingRate(examples.size());
    List<String> docs = new ArrayList<>(examples.size());
    for (Example e : examples) {
      docs.add(e.document());
    }
    NgramCounts tuned =
        DpFineTuning.fineTune(trained.globalCounts, trained.vocabulary, docs, settings, noise);
    return new NgramTextGenerator(new Trained(trained, tuned), threads, seed);
  }

  /** True: the release is the noisy n-gram sum G on the public support (see {@link DpFineTuning}). */
  @Override
  public boolean releasesFineTuning() {
    return true;
  }

  /** G, the noisy sum of clipped n-gram contributions on the public support (its sorted order). */
  @Override
  public double[] fineTuningRelease(List<Example> examples, DpSgdSettings settings, DpNoise noise) {
    Objects.requireNonNull(examples, "examples");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(noise, "noise");
    if (examples.isEmpty()) {
      throw new IllegalArgumentException("examples must not be empty, got 0 examples");
    }
    List<String> docs = new ArrayList<>(examples.size());
    for (Example e : examples) {
      docs.add(e.document());
    }
    return DpFineTuning.noisySum(trained.globalCounts, trained.vocabulary, docs, settings, noise);
  }

  /** The public counts plus the post-processed release (no private text, no noise). */
  @Override
  public NgramTextGenerator fromFineTuningRelease(double[] release, DpSgdSettings settings, int examples) {
    Objects.requireNonNull(release, "release");
    Objects.requireNonNull(settings, "settings");
    if (examples < 1) {
      throw new IllegalArgumentException("examples must be >= 1, got examples=" + examples);
    }
    NgramCounts tuned = DpFineTuning.tuned(trained.globalCounts, release, settings, examples);
    return new NgramTextGenerator(new Trained(trained, tuned), threads, seed);
  }

  /**
   * How much more likely this model finds {@code text} than {@code base} does: the mean, over the
   * text's word tokens, of {@code ln P_this(w | h) - ln P_base(w | h)} under the two global models
   * (0 for a text without tokens). Both must share one vocabulary: {@code base} is the model this
   * one was fine-tuned from. Reads no private text: a fine-tuned model is a release.
   */
  double meanLogRatio(NgramTextGenerator base, String text) {
    if (base.trained.vocabulary != trained.vocabulary) {
      throw new IllegalArgumentException("base must be the model this one was fine-tuned from (same vocabulary)");
    }
    int[] ids = trained.vocabulary.ids(WordTokenizer.tokenize(text));
    KneserNeyModel.Context a = trained.global.context();
    KneserNeyModel.Context b = base.trained.global.context();
    double sum = 0;
    int n = 0;
    for (int i = 0; i < ids.length; i++) {
      a.set(ids, i, 0);
      b.set(ids, i, 0);
      double pa = a.probability(ids[i]);
      double pb = b.probability(ids[i]);
      if (pa > 0 && pb > 0) {
        sum += Math.log(pa / pb);
        n++;
      }
    }
    return n == 0 ? 0 : sum / n;
  }

  /** The trained state (tests). */
  Trained trained() {
    return trained;
  }

  /** Generates one request synchronously with an explicit seed (also used by tests). */
  GenerationResult generateOne(GenerationRequest request, long requestSeed) {
    GenerationTask task = request.task();
    GenerationParams params = request.params();
    if (task instanceof GenerationTask.Random r) {
      return new Sampler(trained, r.label(), params, requestSeed).random(r);
    } else if (task instanceof GenerationTask.FillIn f) {
      return new Sampler(trained, f.label(), params, requestSeed)
          .fillIn(f.parent(), f.maskProbability(), f.targetWords(), false, trained.fillCandidates);
    } else if (task instanceof GenerationTask.Rewrite w) {
      return new Sampler(trained, w.label(), params, requestSeed)
          .fillIn(w.parent(), trained.rewriteMaskProbability, 0, true, 2 * trained.fillCandidates);
    } else if (task instanceof GenerationTask.Cross c) {
      return new Sampler(trained, c.label(), params, requestSeed)
          .cross(c.first(), c.second(), trained.bridgeWords, trained.fillCandidates);
    }
    throw new IllegalArgumentException("unsupported task type " + task.getClass().getName());
  }

  private long requestSeed(GenerationParams params, long call, int index) {
    if (params.seed().isPresent()) {
      return mix(params.seed().getAsLong());
    }
    return mix(seed ^ mix(call * 0x9E3779B97F4A7C15L + index));
  }

  /** SplitMix64's finaliser: decorrelates nearby seeds. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /**
   * Writes the trained statistics (vocabulary and n-gram counts, global and per label) to a
   * gzip file that {@link Builder#load(Path)} reads back; sampling settings are not stored.
   */
  public void save(Path file) {
    Objects.requireNonNull(file, "file");
    try (OutputStream raw = Files.newOutputStream(file);
        DataOutputStream out =
            new DataOutputStream(new BufferedOutputStream(new GZIPOutputStream(raw), 1 << 16))) {
      out.writeInt(MAGIC);
      out.writeInt(FORMAT);
      out.writeInt(trained.globalCounts.order);
      String[] words = trained.vocabulary.words();
      out.writeInt(words.length);
      for (String w : words) {
        out.writeUTF(w);
      }
      writeCounts(out, trained.globalCounts);
      out.writeInt(trained.labelCounts.size());
      for (Map.Entry<String, NgramCounts> e : trained.labelCounts.entrySet()) {
        out.writeUTF(e.getKey());
        writeCounts(out, e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the n-gram model to " + file, e);
    }
  }

  private static void writeCounts(DataOutputStream out, NgramCounts counts) throws IOException {
    out.writeInt(counts.documents());
    long[] keys = counts.counts.sortedKeys();
    out.writeInt(keys.length);
    for (long k : keys) {
      out.writeLong(k);
      out.writeInt(counts.counts.get(k));
    }
  }

  private static NgramCounts readCounts(DataInputStream in, int order, Path file)
      throws IOException {
    NgramCounts counts = new NgramCounts(order);
    counts.setDocuments(in.readInt());
    int n = in.readInt();
    if (n < 0) {
      throw new IllegalArgumentException("corrupt n-gram model file " + file + ": count=" + n);
    }
    for (int i = 0; i < n; i++) {
      counts.addCount(in.readLong(), in.readInt());
    }
    return counts;
  }

  @Override
  public void close() {
    closed = true;
    pool.shutdown();
  }

  @Override
  public String toString() {
    return "NgramTextGenerator{order=" + order() + ", vocabulary=" + vocabularySize()
        + ", labels=" + trained.labels.size() + ", threads=" + threads + "}";
  }

  /** Per-thread scratch of a sampler: candidate marks over the vocabulary. */
  static final class Scratch {
    final int[] stamp;
    int stampValue;

    Scratch(int vocabularySize) {
      stamp = new int[vocabularySize];
    }
  }

  /** The immutable trained state shared by every request. */
  static final class Trained {
    final Vocabulary vocabulary;
    final NgramCounts globalCounts;
    final Map<String, NgramCounts> labelCounts;
    final KneserNeyModel global;
    final Map<String, KneserNeyModel> labels;
    final boolean[] isWord;
    final int mostFrequentWord;
    final double wordsPerSentence;
    final ThreadLocal<Scratch> scratch;
    private final Map<String, int[]> byLowerCase;
    final int candidates;
    final double labelWeight;
    final double keywordBoost;
    final double rewriteMaskProbability;
    final int fillCandidates;
    final int bridgeWords;

    Trained(Vocabulary vocabulary, NgramCounts globalCounts, Map<String, NgramCounts> labelCounts,
        Builder b) {
      this(vocabulary, globalCounts, labelCounts, b.candidates, b.labelWeight, b.keywordBoost,
          b.rewriteMaskProbability, b.fillCandidates, b.bridgeWords);
    }

    private Trained(Vocabulary vocabulary, NgramCounts globalCounts,
        Map<String, NgramCounts> labelCounts, int candidates, double labelWeight,
        double keywordBoost, double rewriteMaskProbability, int fillCandidates, int bridgeWords) {
      this.vocabulary = vocabulary;
      this.globalCounts = globalCounts;
      this.labelCounts = Collections.unmodifiableMap(new TreeMap<>(labelCounts));
      this.global = new KneserNeyModel(globalCounts, vocabulary.size());
      Map<String, KneserNeyModel> m = new TreeMap<>();
      labelCounts.forEach((k, v) -> m.put(k, new KneserNeyModel(v, vocabulary.size())));
      this.labels = Collections.unmodifiableMap(m);
      this.isWord = new boolean[vocabulary.size()];
      this.scratch = ThreadLocal.withInitial(() -> new Scratch(vocabulary.size()));
      int mf = -1;
      for (int i = 3; i < isWord.length; i++) {
        isWord[i] = WordTokenizer.isWord(vocabulary.word(i));
        if (mf < 0 && isWord[i]) {
          mf = i;
        }
      }
      this.mostFrequentWord = mf < 0 ? Vocabulary.EOS : mf;
      Map<String, int[]> lower = new HashMap<>();
      for (int i = 3; i < isWord.length; i++) {
        String key = vocabulary.word(i).toLowerCase(Locale.ROOT);
        int[] old = lower.get(key);
        int[] ids = old == null ? new int[1] : Arrays.copyOf(old, old.length + 1);
        ids[ids.length - 1] = i;
        lower.put(key, ids);
      }
      this.byLowerCase = lower;
      // Each training token is the last id of exactly one highest-order n-gram.
      long[] wordsAndEnds = new long[2];
      long idMask = (1L << Vocabulary.BITS) - 1;
      globalCounts.counts.forEach((key, c) -> {
        int last = (int) (key & idMask);
        if (isWord[last]) {
          wordsAndEnds[0] += c;
        } else if (last == Vocabulary.EOS
            || (last >= 3 && WordTokenizer.endsSentence(vocabulary.word(last)))) {
          wordsAndEnds[1] += c;
        }
      });
      this.wordsPerSentence = wordsAndEnds[1] == 0 ? 20 : (double) wordsAndEnds[0] / wordsAndEnds[1];
      this.candidates = candidates;
      this.labelWeight = labelWeight;
      this.keywordBoost = keywordBoost;
      this.rewriteMaskProbability = rewriteMaskProbability;
      this.fillCandidates = fillCandidates;
      this.bridgeWords = bridgeWords;
    }

    /** The same settings, vocabulary and label models with new global counts. */
    Trained(Trained base, NgramCounts globalCounts) {
      this(base.vocabulary, globalCounts, base.labelCounts, base.candidates, base.labelWeight,
          base.keywordBoost, base.rewriteMaskProbability, base.fillCandidates, base.bridgeWords);
    }

    /** Ids of every case variant of {@code word} in the vocabulary (possibly none). */
    int[] caseVariants(String word) {
      int[] ids = byLowerCase.get(word.toLowerCase(Locale.ROOT));
      return ids == null ? new int[0] : ids;
    }
  }

  /**
   * Settings and training text of an {@link NgramTextGenerator}. Each setter validates at once;
   * {@link #build()} checks the combination and may be called again (the builder is reusable).
   */
  public static final class Builder {
    private Integer order;
    private final List<String> texts = new ArrayList<>();
    private final List<String> textLabels = new ArrayList<>();
    private Path modelFile;
    private int minCount = 1;
    private int maxVocabulary = Vocabulary.MAX_SIZE;
    private int candidates = 24;
    private double labelWeight = 0.8;
    private double keywordBoost = 8.0;
    private double rewriteMaskProbability = 0.25;
    private int fillCandidates = 4;
    private int bridgeWords = 2;
    private int threads = Runtime.getRuntime().availableProcessors();
    private long seed = 0x5ec9e_0001L;

    private Builder() {}

    /** N-gram order, 2 to 4 (default 4). */
    public Builder order(int order) {
      this.order = Checks.inRange(2, 4, order, "order");
      return this;
    }

    /** Adds unlabelled PUBLIC training documents. */
    public Builder train(List<String> texts) {
      Objects.requireNonNull(texts, "texts");
      for (int i = 0; i < texts.size(); i++) {
        if (texts.get(i) == null) {
          throw new IllegalArgumentException("texts must not contain null, got null at index " + i);
        }
      }
      this.texts.addAll(texts);
      this.textLabels.addAll(Collections.nCopies(texts.size(), null));
      return this;
    }

    /**
     * Adds PUBLIC training documents with their labels ({@code labels.get(i)} labels {@code
     * texts.get(i)}; a null label means unlabelled). Each label gets its own model, mixed with the
     * global one at generation time.
     */
    public Builder train(List<String> texts, List<String> labels) {
      Objects.requireNonNull(texts, "texts");
      Objects.requireNonNull(labels, "labels");
      if (texts.size() != labels.size()) {
        throw new IllegalArgumentException(
            "texts and labels must have the same size, got texts=" + texts.size()
                + " labels=" + labels.size());
      }
      train(texts);
      for (int i = 0; i < labels.size(); i++) {
        textLabels.set(textLabels.size() - labels.size() + i, labels.get(i));
      }
      return this;
    }

    /** Reads the statistics of a model written by {@link NgramTextGenerator#save(Path)}. */
    public Builder load(Path file) {
      Objects.requireNonNull(file, "file");
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("model file does not exist, got file=" + file);
      }
      this.modelFile = file;
      return this;
    }

    /** Words seen fewer times become unknown (default 1: keep every word). */
    public Builder minCount(int minCount) {
      this.minCount = Checks.atLeast(1, minCount, "minCount");
      return this;
    }

    /** Largest vocabulary, reserved tokens included (4 to 32768, default 32768). */
    public Builder maxVocabulary(int maxVocabulary) {
      this.maxVocabulary = Checks.inRange(4, Vocabulary.MAX_SIZE, maxVocabulary, "maxVocabulary");
      return this;
    }

    /** Most frequent continuations per context level that temperature and top-p act on (24). */
    public Builder candidates(int candidates) {
      this.candidates = Checks.atLeast(1, candidates, "candidates");
      return this;
    }

    /** Weight of the label's own model in the mixture with the global model (0.8). */
    public Builder labelWeight(double labelWeight) {
      this.labelWeight = Checks.probability(labelWeight, "labelWeight");
      return this;
    }

    /** Factor on a keyword's probability until it is used (8; 1 disables keyword bias). */
    public Builder keywordBoost(double keywordBoost) {
      if (!(keywordBoost >= 1) || Double.isInfinite(keywordBoost)) {
        throw new IllegalArgumentException(
            "keywordBoost must be finite and >= 1, got keywordBoost=" + keywordBoost);
      }
      this.keywordBoost = keywordBoost;
      return this;
    }

    /** Probability that Rewrite masks each word (0.25). */
    public Builder rewriteMaskProbability(double p) {
      this.rewriteMaskProbability = Checks.probability(p, "rewriteMaskProbability");
      return this;
    }

    /** Proposals per masked span, resampled by right-context fit (4). */
    public Builder fillCandidates(int fillCandidates) {
      this.fillCandidates = Checks.atLeast(1, fillCandidates, "fillCandidates");
      return this;
    }

    /** Tokens after the cut of a Cross child that the model re-samples to smooth the joint (2). */
    public Builder bridgeWords(int bridgeWords) {
      this.bridgeWords = Checks.atLeast(0, bridgeWords, "bridgeWords");
      return this;
    }

    /** Worker threads (default: available processors). */
    public Builder threads(int threads) {
      this.threads = Checks.atLeast(1, threads, "threads");
      return this;
    }

    /** Base seed for requests that carry none. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Trains (or loads) the model. */
    public NgramTextGenerator build() {
      if (modelFile != null && !texts.isEmpty()) {
        throw new IllegalStateException(
            "load(file) and train(texts) are exclusive, got file=" + modelFile + " and "
                + texts.size() + " texts");
      }
      Trained trained = modelFile != null ? loadTrained() : trainNow();
      return new NgramTextGenerator(trained, threads, seed);
    }

    private Trained trainNow() {
      int n = order == null ? 4 : order;
      List<List<String>> docs = new ArrayList<>(texts.size());
      boolean anyToken = false;
      for (String t : texts) {
        List<String> tokens = WordTokenizer.tokenize(t);
        anyToken |= !tokens.isEmpty();
        docs.add(tokens);
      }
      if (!anyToken) {
        throw new IllegalStateException(
            "no training text: call train(texts) with at least one non-empty document (got "
                + texts.size() + " documents)");
      }
      Vocabulary vocabulary = Vocabulary.build(docs, minCount, maxVocabulary);
      NgramCounts global = new NgramCounts(n);
      Map<String, NgramCounts> perLabel = new TreeMap<>();
      for (int i = 0; i < docs.size(); i++) {
        long[] contribution = NgramCounts.documentContribution(vocabulary.ids(docs.get(i)), n);
        global.add(contribution);
        String label = textLabels.get(i);
        if (label != null) {
          perLabel.computeIfAbsent(label, k -> new NgramCounts(n)).add(contribution);
        }
      }
      return new Trained(vocabulary, global, perLabel, this);
    }

    private Trained loadTrained() {
      try (InputStream raw = Files.newInputStream(modelFile);
          DataInputStream in =
              new DataInputStream(new BufferedInputStream(new GZIPInputStream(raw), 1 << 16))) {
        if (in.readInt() != MAGIC) {
          throw new IllegalArgumentException("not an embedded-ngram model file: " + modelFile);
        }
        int format = in.readInt();
        if (format != FORMAT) {
          throw new IllegalArgumentException(
              "unsupported model format in " + modelFile + ", got format=" + format);
        }
        int n = in.readInt();
        if (order != null && order != n) {
          throw new IllegalStateException(
              "order(" + order + ") conflicts with the loaded model's order " + n);
        }
        if (n < 2 || n > 4) {
          throw new IllegalArgumentException("corrupt model file " + modelFile + ": order=" + n);
        }
        int size = in.readInt();
        if (size < 3 || size > Vocabulary.MAX_SIZE) {
          throw new IllegalArgumentException(
              "corrupt model file " + modelFile + ": vocabulary=" + size);
        }
        String[] words = new String[size];
        for (int i = 0; i < size; i++) {
          words[i] = in.readUTF();
        }
        Vocabulary vocabulary = new Vocabulary(words);
        NgramCounts global = readCounts(in, n, modelFile);
        int labelCount = in.readInt();
        Map<String, NgramCounts> perLabel = new TreeMap<>();
        for (int i = 0; i < labelCount; i++) {
          String label = in.readUTF();
          perLabel.put(label, readCounts(in, n, modelFile));
        }
        return new Trained(vocabulary, global, perLabel, this);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the n-gram model " + modelFile, e);
      }
    }
  }
}
