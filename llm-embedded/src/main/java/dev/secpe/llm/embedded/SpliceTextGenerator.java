package dev.secpe.llm.embedded;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * An in-process stand-in for an LLM that writes with real sentences: it recombines lines of PUBLIC
 * documents, so its texts read like the public corpus (real words, real layout, real lengths) and
 * a text embedder places them among real texts, which the n-gram model's samples are not. It has
 * no parameters to learn from private data (it is not a {@code FineTunableGenerator}).
 *
 * <ul>
 *   <li>{@link GenerationTask.Random}: a run of consecutive lines of a random public document of
 *       the label (all documents when the label is unknown or absent), from a random line, with a
 *       jump to a random line of another document of the label with probability {@link
 *       Builder#jumpProbability(double)} after each line, until {@code targetWords} (else the
 *       document's own length). With keywords (CTCL, DPGA), documents holding a keyword are
 *       preferred.
 *   <li>{@link GenerationTask.FillIn}: the parent with each line replaced, with probability
 *       {@code maskProbability * }{@link Builder#lineMaskScale(double)}, by another line of the
 *       public document the parent's lines come from, or, when that document has fewer than two
 *       lines besides the parent's own (a one-sentence record), of it and the 8 public documents of
 *       the label that share the most distinctive words (words in at most a fifth of the
 *       documents) with the parent; at least one line is replaced, as an LLM asked to fill in
 *       masked words never returns the parent unchanged. Then lines are added (continuing a random
 *       public document) or dropped at the end until the length is within 10% of {@code
 *       targetWords}. Most of the parent is kept: a variation is a local step, as PE needs.
 *   <li>{@link GenerationTask.Rewrite}: each line replaced with probability 0.3.
 *   <li>{@link GenerationTask.Cross}: the first half of one parent's lines and the second half of
 *       the other's.
 * </ul>
 *
 * <p>A "line" is a sentence of a non-blank line of the document (prose paragraphs are one line of
 * several sentences); sentences longer than 40 words are cut into pieces of at most 40 words. Each
 * keeps the separator that followed it, so generated texts keep their sources' layout: texts
 * spliced from one-line documents are one line. <b>Sentence order is not kept, by design</b>: a
 * text is a run of consecutive sentences from a random starting sentence, jumping to another
 * document with {@link Builder#jumpProbability(double)} ({@code 0} keeps every run within one
 * document, in its order), and variations replace, add or drop sentences; that recombination is
 * what makes it a generator rather than a sampler of the public documents. Max tokens (in words) and stop sequences are honoured; temperature and
 * top-p are not used. Deterministic: a request with {@code params.seed()} always gives the same
 * text; without one the seed comes from {@link Builder#seed(long)}, the call count and the index.
 * Thread-safe (immutable after building).
 */
public final class SpliceTextGenerator extends LocalGenerator {

  /** The generator name. */
  public static final String NAME = "embedded-splice";

  private static final int MAX_LINE_WORDS = 40;
  private static final double REWRITE_PROBABILITY = 0.3;
  private static final int NEIGHBOURS = 8;

  private final List<String[]> docs;
  private final int[] all;
  private final Map<String, int[]> byLabel;
  private final String[] lowerDocs;
  /** line -> the first document holding it. */
  private final Map<String, Integer> lineSource;
  /** word -> documents holding it, for words in at most a fifth of the documents. */
  private final Map<String, int[]> index;
  private final double jump;
  private final double lineMaskScale;
  private final long seed;
  private final AtomicLong calls = new AtomicLong();

  private SpliceTextGenerator(Builder b) {
    super(NAME);
    this.docs = new ArrayList<>();
    List<String> lower = new ArrayList<>();
    Map<String, List<Integer>> labels = new HashMap<>();
    for (int i = 0; i < b.texts.size(); i++) {
      String[] lines = lines(b.texts.get(i));
      if (lines.length == 0) {
        continue;
      }
      int id = docs.size();
      docs.add(lines);
      lower.add(b.texts.get(i).toLowerCase(Locale.ROOT));
      String label = b.labels == null ? null : b.labels.get(i);
      if (label != null) {
        labels.computeIfAbsent(label, k -> new ArrayList<>()).add(id);
      }
    }
    if (docs.isEmpty()) {
      throw new IllegalArgumentException("training texts must hold at least one non-blank line, got none");
    }
    this.all = IntStream.range(0, docs.size()).toArray();
    this.byLabel = new HashMap<>();
    labels.forEach((k, v) -> byLabel.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
    this.lowerDocs = lower.toArray(new String[0]);
    this.lineSource = new HashMap<>();
    for (int d = 0; d < docs.size(); d++) {
      for (String l : docs.get(d)) {
        lineSource.putIfAbsent(l, d);
      }
    }
    Map<String, List<Integer>> inv = new HashMap<>();
    for (int d = 0; d < docs.size(); d++) {
      for (String w : new HashSet<>(tokens(lowerDocs[d]))) {
        inv.computeIfAbsent(w, k -> new ArrayList<>()).add(d);
      }
    }
    this.index = new HashMap<>();
    int maxDf = Math.max(2, docs.size() / 5);
    inv.forEach((w, ds) -> {
      if (ds.size() <= maxDf) {
        index.put(w, ds.stream().mapToInt(Integer::intValue).toArray());
      }
    });
    this.jump = b.jump;
    this.lineMaskScale = b.lineMaskScale;
    this.seed = b.seed;
  }

  /** A builder; {@link Builder#train} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The labels seen in training, sorted. */
  public List<String> labels() {
    return byLabel.keySet().stream().sorted().toList();
  }

  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    long call = calls.getAndIncrement();
    List<GenerationResult> out = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      GenerationRequest r = requests.get(i);
      out.add(generateOne(r, new SplittableRandom(requestSeed(r, seed, call, i))));
    }
    return CompletableFuture.completedFuture(List.copyOf(out));
  }

  /**
   * The seed of the {@code index}-th request of call number {@code call}: the request's own, else
   * one derived from the generator's seed, the call and the index.
   */
  static long requestSeed(GenerationRequest r, long seed, long call, int index) {
    return r.params().seed().isPresent()
        ? r.params().seed().getAsLong()
        : seed ^ (call * 0x9E3779B97F4A7C15L) ^ (index * 0xBF58476D1CE4E5B9L);
  }

  private GenerationResult generateOne(GenerationRequest r, SplittableRandom rng) {
    GenerationTask t = r.task();
    List<String> lines;
    if (t instanceof GenerationTask.FillIn f) {
      int[] near = neighbours(f.parent(), pool(f.label()), rng);
      lines = replace(lines(f.parent()), f.maskProbability() * lineMaskScale, near, rng);
      lines = fitLength(lines, f.targetWords(), near, rng);
    } else if (t instanceof GenerationTask.Rewrite w) {
      lines = replace(lines(w.parent()), REWRITE_PROBABILITY, neighbours(w.parent(), pool(w.label()), rng), rng);
    } else if (t instanceof GenerationTask.Cross c) {
      String[] a = lines(c.first());
      String[] b = lines(c.second());
      lines = new ArrayList<>();
      for (int i = 0; i < (a.length + 1) / 2; i++) {
        lines.add(a[i]);
      }
      for (int i = b.length / 2; i < b.length; i++) {
        lines.add(b[i]);
      }
      if (lines.isEmpty()) {
        lines = fresh(pool(c.label()), List.of(), 0, rng);
      }
    } else {
      GenerationTask.Random x = (GenerationTask.Random) t;
      lines = fresh(pool(x.label()), x.keywords(), x.targetWords(), rng);
    }
    return finish(String.join("", lines), r);
  }

  /**
   * The documents of {@code pool} that share the most distinctive words with {@code parent} (at
   * most {@link #NEIGHBOURS}); the whole pool when none shares a word. Replacement lines come from
   * them, so a variation stays on the parent's subject, as an LLM's fill-in does.
   */
  private int[] neighbours(String parent, int[] pool, SplittableRandom rng) {
    String[] parentLines = lines(parent);
    Set<String> own = new HashSet<>(Arrays.asList(parentLines));
    // The parent's main source: the document most of its lines come from.
    Map<Integer, Integer> sources = new HashMap<>();
    for (String l : parentLines) {
      Integer d = lineSource.get(l);
      if (d != null) {
        sources.merge(d, 1, Integer::sum);
      }
    }
    int source = -1;
    if (!sources.isEmpty()) {
      source = sources.entrySet().stream()
          .max((a, b) -> a.getValue().equals(b.getValue())
              ? Integer.compare(b.getKey(), a.getKey()) : Integer.compare(a.getValue(), b.getValue()))
          .orElseThrow().getKey();
      // A source with lines of its own beyond the parent's keeps the variation inside it; a source
      // the parent already holds whole (a one-sentence record) has nothing else to offer, so its
      // word neighbours join it.
      if (othersIn(new int[] {source}, own) >= 2) {
        return new int[] {source};
      }
    }
    Map<Integer, Integer> score = new HashMap<>();
    for (String w : new HashSet<>(tokens(parent.toLowerCase(Locale.ROOT)))) {
      int[] ds = index.get(w);
      if (ds != null) {
        for (int d : ds) {
          score.merge(d, 1, Integer::sum);
        }
      }
    }
    Set<Integer> allowed = new HashSet<>();
    for (int d : pool) {
      allowed.add(d);
    }
    final int src = source;
    int[] best = IntStream.concat(
            score.entrySet().stream()
                .filter(e -> allowed.contains(e.getKey()) && e.getKey() != src)
                .sorted((a, b) -> a.getValue().equals(b.getValue())
                    ? Integer.compare(a.getKey(), b.getKey()) : Integer.compare(b.getValue(), a.getValue()))
                .limit(NEIGHBOURS)
                .mapToInt(Map.Entry::getKey),
            src >= 0 ? IntStream.of(src) : IntStream.empty())
        .toArray();
    // Neighbours that hold nothing but the parent's own lines leave nothing to vary with: the whole
    // pool of the label then serves.
    return othersIn(best, own) > 0 ? best : pool;
  }

  /** How many lines of the documents {@code ds} are not among {@code own}. */
  private long othersIn(int[] ds, Set<String> own) {
    long n = 0;
    for (int d : ds) {
      for (String u : docs.get(d)) {
        n += own.contains(u) ? 0 : 1;
      }
    }
    return n;
  }

  private static List<String> tokens(String lower) {
    List<String> out = new ArrayList<>();
    for (String w : lower.split("[^\\p{L}\\p{N}]+")) {
      if (w.length() >= 3) {
        out.add(w);
      }
    }
    return out;
  }

  private int[] pool(String label) {
    int[] p = label == null ? null : byLabel.get(label);
    return p == null || p.length == 0 ? all : p;
  }

  private List<String> fresh(int[] pool, List<String> keywords, int target, SplittableRandom rng) {
    int d = pickDocument(pool, keywords, rng);
    String[] doc = docs.get(d);
    int want = target > 0 ? target : words(doc);
    List<String> out = new ArrayList<>();
    int line = rng.nextInt(doc.length);
    int words = 0;
    for (int guard = 0; words < want && guard < 10_000; guard++) {
      out.add(doc[line]);
      words += Words.count(doc[line]);
      line++;
      if (line >= doc.length || rng.nextDouble() < jump) {
        doc = docs.get(pool[rng.nextInt(pool.length)]);
        line = rng.nextInt(doc.length);
      }
    }
    return out;
  }

  private int pickDocument(int[] pool, List<String> keywords, SplittableRandom rng) {
    if (!keywords.isEmpty() && rng.nextDouble() < 0.8) {
      List<Integer> hits = new ArrayList<>();
      for (int d : pool) {
        for (String k : keywords) {
          if (lowerDocs[d].contains(k.toLowerCase(Locale.ROOT))) {
            hits.add(d);
            break;
          }
        }
      }
      if (!hits.isEmpty()) {
        return hits.get(rng.nextInt(hits.size()));
      }
    }
    return pool[rng.nextInt(pool.length)];
  }

  /**
   * The parent with each unit replaced with probability {@code p} by another unit of the pool. At
   * least one unit is replaced, as an LLM asked to fill in masked words never returns the parent
   * unchanged; a replacement differs from the unit it replaces wherever the pool allows.
   */
  private List<String> replace(String[] parent, double p, int[] pool, SplittableRandom rng) {
    List<String> out = new ArrayList<>(parent.length);
    boolean changed = false;
    for (String line : parent) {
      if (rng.nextDouble() < p) {
        String other = otherLine(line, pool, rng);
        changed |= !other.equals(line);
        out.add(other);
      } else {
        out.add(line);
      }
    }
    if (out.isEmpty()) {
      out.add(randomLine(pool, rng));
    } else if (!changed) {
      int at = rng.nextInt(out.size());
      out.set(at, otherLine(out.get(at), pool, rng));
    }
    return out;
  }

  /** A unit of the pool other than {@code line} (after a few draws, whatever the pool gives). */
  private String otherLine(String line, int[] pool, SplittableRandom rng) {
    String other = randomLine(pool, rng);
    for (int tries = 0; other.equals(line) && tries < 16; tries++) {
      other = randomLine(pool, rng);
    }
    return other;
  }

  private List<String> fitLength(List<String> lines, int target, int[] pool, SplittableRandom rng) {
    if (target <= 0) {
      return lines;
    }
    List<String> out = new ArrayList<>(lines);
    int words = 0;
    for (String l : out) {
      words += Words.count(l);
    }
    double slack = 0.1 * target;
    while (words < target - slack) {
      List<String> more = fresh(pool, List.of(), (int) Math.ceil(target - words), rng);
      for (String l : more) {
        out.add(l);
        words += Words.count(l);
      }
    }
    while (words > target + slack && out.size() > 1) {
      words -= Words.count(out.remove(out.size() - 1));
    }
    return out;
  }

  private String randomLine(int[] pool, SplittableRandom rng) {
    String[] doc = docs.get(pool[rng.nextInt(pool.length)]);
    return doc[rng.nextInt(doc.length)];
  }

  private static GenerationResult finish(String text, GenerationRequest r) {
    GenerationResult.FinishReason reason = GenerationResult.FinishReason.STOP;
    for (String stop : r.params().stop()) {
      int at = stop.isEmpty() ? -1 : text.indexOf(stop);
      if (at >= 0) {
        text = text.substring(0, at);
      }
    }
    int max = r.params().maxTokens();
    String[] tokens = text.split("(?<=\\s)");
    int words = 0;
    StringBuilder sb = new StringBuilder();
    for (String tok : tokens) {
      if (!tok.isBlank() && ++words > max) {
        reason = GenerationResult.FinishReason.LENGTH;
        break;
      }
      sb.append(tok);
    }
    String out = sb.toString().strip();
    return new GenerationResult(out, reason, 0, Math.min(words, max));
  }

  private static int words(String[] lines) {
    int n = 0;
    for (String l : lines) {
      n += Words.count(l);
    }
    return n;
  }

  /** A sentence boundary inside a line: end punctuation, space, then an upper-case letter or a quote. */
  private static final Pattern SENTENCE =
      Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}\"'(\\[])");

  /**
   * The units the generator recombines: the sentences of each non-blank line (stripped), long
   * sentences cut into pieces of at most 40 words. Each unit carries the separator that followed
   * it in the text (a space inside a line, a newline at its end; a space after the last unit of a
   * one-line text, which has no line end), so that texts joined from units keep the layout of their
   * sources: prose paragraphs stay paragraphs, short lines stay lines, one-line texts one line.
   */
  static String[] lines(String text) {
    List<String> out = new ArrayList<>();
    // A one-line text (a message, a single paragraph) has no line end: its units are joined by
    // spaces only, so that texts spliced from one-line sources stay on one line.
    boolean oneLine = text.strip().lines().filter(l -> !l.isBlank()).count() <= 1;
    for (String raw : text.split("\\R")) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      List<String> pieces = new ArrayList<>();
      for (String sentence : SENTENCE.split(line)) {
        String[] w = sentence.strip().split("\\s+");
        for (int from = 0; from < w.length; from += MAX_LINE_WORDS) {
          pieces.add(String.join(" ", Arrays.copyOfRange(w, from, Math.min(w.length, from + MAX_LINE_WORDS))));
        }
      }
      for (int i = 0; i < pieces.size(); i++) {
        out.add(pieces.get(i) + (i == pieces.size() - 1 && !oneLine ? "\n" : " "));
      }
    }
    return out.toArray(new String[0]);
  }

  /** Word counter used for lengths: whitespace-separated tokens. */
  private static final class Words {
    static int count(String s) {
      int n = 0;
      boolean in = false;
      for (int i = 0; i < s.length(); i++) {
        boolean ws = Character.isWhitespace(s.charAt(i));
        if (!ws && !in) {
          n++;
        }
        in = !ws;
      }
      return n;
    }
  }

  /** Builds a {@link SpliceTextGenerator}. */
  public static final class Builder {
    private List<String> texts;
    private List<String> labels;
    private double jump = 0.1;
    private double lineMaskScale = 0.5;
    private long seed = 0x5EC9E;

    private Builder() {}

    /** The PUBLIC training texts (required); never private text. */
    public Builder train(List<String> texts) {
      return train(texts, null);
    }

    /**
     * The PUBLIC training texts and their labels ({@code labels} may be null, or hold nulls for
     * unlabelled texts; otherwise one per text).
     */
    public Builder train(List<String> texts, List<String> labels) {
      Objects.requireNonNull(texts, "texts");
      if (labels != null && labels.size() != texts.size()) {
        throw new IllegalArgumentException(
            "labels must have one entry per text, got " + labels.size() + " labels for " + texts.size() + " texts");
      }
      this.texts = List.copyOf(texts);
      this.labels = labels == null ? null : new ArrayList<>(labels);
      return this;
    }

    /** After each line of a fresh sample, the chance to continue in another document (default 0.1). */
    public Builder jumpProbability(double p) {
      this.jump = Checks.probability(p, "jumpProbability");
      return this;
    }

    /**
     * A fill-in replaces each line with probability {@code maskProbability * scale} (default 0.5:
     * Aug-PE's mask probability 0.5 replaces a quarter of the lines).
     */
    public Builder lineMaskScale(double scale) {
      if (!(scale > 0 && scale <= 2)) {
        throw new IllegalArgumentException("lineMaskScale must be in (0, 2], got lineMaskScale=" + scale);
      }
      this.lineMaskScale = scale;
      return this;
    }

    /** The seed for requests that carry none. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Indexes the training texts. */
    public SpliceTextGenerator build() {
      if (texts == null) {
        throw new IllegalStateException("training texts missing: call train(texts) first");
      }
      return new SpliceTextGenerator(this);
    }
  }
}
