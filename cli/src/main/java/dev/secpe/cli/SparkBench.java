package dev.secpe.cli;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PrivateText;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.spark.EmbedderFactory;
import dev.secpe.spark.PrivateRow;
import dev.secpe.spark.SparkPrivateStore;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * {@code bench spark}: the private-data work of a round on Spark against the in-memory store, on
 * the same data in one process. Two parts: embedding real e-mails with the in-process int8 MiniLM
 * (what dominates a run on CPU), and Aug-PE's vote count of many private vectors against broadcast
 * candidates (vectors from a fast seeded stand-in embedder, so that the vote is timed at a size
 * where it matters). For each: seconds on each path, their ratio (Spark / in memory), rows per
 * second per core (cores: this machine's processors for the in-memory path, the Spark master's
 * task slots for Spark) and whether the two paths gave identical vote counts. Each vote is warmed
 * up once and timed {@value #REPS} times, the best kept; each embedding is timed once, with the
 * model loaded beforehand (Spark's one-off load per executor is timed apart, on a two-row store). Loaded only when
 * Spark is on the class path (bin/secpe puts it there for {@code bench spark}).
 */
final class SparkBench {

  /** Timed repetitions of each vote after a warm-up; the best is kept. */
  static final int REPS = 3;

  private SparkBench() {}

  /**
   * Settings.
   *
   * @param master Spark master URL
   * @param partitions partitions of the private RDDs
   * @param embedRows e-mails embedded on each path (the bundled 1,500, repeated with a suffix)
   * @param voteRows private vectors in the vote
   * @param candidates candidate vectors in the vote
   * @param dim dimension of the vote's vectors
   */
  record Config(String master, int partitions, int embedRows, int voteRows, int candidates, int dim) {}

  static Map<String, Object> run(Config c) {
    SparkConf conf = new SparkConf().setAppName("secpe-bench").setIfMissing("spark.master", c.master())
        .set("spark.ui.enabled", "false");
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.setLogLevel("WARN");
      int sparkCores = sc.defaultParallelism();
      int localCores = Runtime.getRuntime().availableProcessors();
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("master", sc.master());
      out.put("spark_cores", sparkCores);
      out.put("in_memory_cores", localCores);
      out.put("partitions", c.partitions());

      // 1. Embedding real e-mails with the int8 MiniLM.
      List<String> texts = emails(c.embedRows());
      PrivacyGuard guard = PrivacyGuard.localOnly();
      double memEmbed;
      try (TextEmbedder e = MiniLmEmbedder.createQuantized()) {
        e.embed(List.of("warm-up")); // the model and ONNX session are loaded outside the timing
        PrivateStore mem = PrivateStore.inMemory(dataset(texts));
        mem.groups(List.of());
        long t0 = System.nanoTime();
        mem.embed(e, guard);
        memEmbed = seconds(t0);
      }
      // Spark loads the model once per executor JVM and store: timed apart on a two-row store.
      double fixed;
      try (TextEmbedder e = MiniLmEmbedder.createQuantized()) {
        SparkPrivateStore tiny = store(sc, texts.subList(0, 2), 1, MiniLmEmbedder::createQuantized);
        long t0 = System.nanoTime();
        tiny.embed(e, guard);
        fixed = seconds(t0);
        tiny.close();
        SparkPrivateStore spark = store(sc, texts, c.partitions(), MiniLmEmbedder::createQuantized);
        long t1 = System.nanoTime();
        spark.embed(e, guard);
        double sparkEmbed = seconds(t1);
        spark.close();
        out.put("embed_rows", texts.size());
        out.put("in_memory_embed_seconds", memEmbed);
        out.put("spark_embed_seconds", sparkEmbed);
        out.put("spark_embed_fixed_seconds", fixed);
        out.put("embed_ratio_spark_to_in_memory", sparkEmbed / memEmbed);
        out.put("in_memory_embed_rows_per_second_per_core", texts.size() / memEmbed / localCores);
        out.put("spark_embed_rows_per_second_per_core", texts.size() / sparkEmbed / sparkCores);
      }

      // 2. Aug-PE's vote count against broadcast candidates.
      List<String> ids = new ArrayList<>(c.voteRows());
      for (int i = 0; i < c.voteRows(); i++) {
        ids.add("record " + i);
      }
      TextEmbedder seeded = new SeededVectors(c.dim());
      EmbeddingMatrix cand = EmbeddingMatrix.of(new SeededVectors(c.dim()).embed(candidateNames(c.candidates())));
      PrivateStore mem = PrivateStore.inMemory(dataset(ids));
      mem.groups(List.of());
      mem.embed(seeded, guard);
      TimedVote memTimed = bestVote(mem, cand);
      int dim = c.dim();
      SparkPrivateStore spark = store(sc, ids, c.partitions(), () -> new SeededVectors(dim));
      spark.embed(seeded, guard);
      TimedVote sparkTimed = bestVote(spark, cand);
      spark.close();
      long[] memCounts = memTimed.counts();
      long[] sparkCounts = sparkTimed.counts();
      double memVote = memTimed.seconds();
      double sparkVote = sparkTimed.seconds();
      double flop = 2.0 * c.voteRows() * c.candidates() * c.dim();
      out.put("vote_rows", c.voteRows());
      out.put("vote_candidates", c.candidates());
      out.put("vote_dimension", c.dim());
      out.put("in_memory_vote_seconds", memVote);
      out.put("spark_vote_seconds", sparkVote);
      out.put("vote_ratio_spark_to_in_memory", sparkVote / memVote);
      out.put("in_memory_vote_rows_per_second_per_core", c.voteRows() / memVote / localCores);
      out.put("spark_vote_rows_per_second_per_core", c.voteRows() / sparkVote / sparkCores);
      out.put("in_memory_vote_gflops", flop / memVote / 1e9);
      out.put("spark_vote_gflops", flop / sparkVote / 1e9);
      out.put("vote_counts_identical", Arrays.equals(memCounts, sparkCounts));
      return out;
    }
  }

  private static SparkPrivateStore store(
      JavaSparkContext sc, List<String> texts, int partitions, EmbedderFactory f) {
    List<PrivateRow> rows = texts.stream().map(PrivateRow::of).toList();
    SparkPrivateStore s = SparkPrivateStore.builder().records(sc.parallelize(rows, partitions)).embedder(f).build();
    s.groups(List.of());
    return s;
  }

  private static PrivateDataset dataset(List<String> texts) {
    List<PrivateRecord> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      out.add(new PrivateRecord("r" + i, PrivateText.of(texts.get(i)), Optional.<Label>empty()));
    }
    return PrivateDataset.of(out);
  }

  /** The bundled e-mails that are public in some split, repeated with a numbered suffix up to {@code n}. */
  private static List<String> emails(int n) {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    LinkedHashSet<String> distinct = new LinkedHashSet<>(corpus.byEra().publicPart().texts());
    distinct.addAll(corpus.publicPart().texts());
    List<String> base = new ArrayList<>(distinct);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String t = base.get(i % base.size());
      out.add(i < base.size() ? t : t + "\n" + i);
    }
    return out;
  }

  private static List<String> candidateNames(int n) {
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add("candidate " + i);
    }
    return out;
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  /** A store's vote counts and the best of the {@link #REPS} timed votes that gave them. */
  private record TimedVote(long[] counts, double seconds) {}

  /**
   * Votes {@code candidates} against {@code store} once untimed (the kernel's initialisation; on
   * Spark, the first job ships the kernel's classes), then {@link #REPS} times, keeping the best.
   */
  private static TimedVote bestVote(PrivateStore store, EmbeddingMatrix candidates) {
    store.nearestCounts(0, candidates, null, 1);
    long[] counts = null;
    double best = Double.POSITIVE_INFINITY;
    for (int rep = 0; rep < REPS; rep++) {
      long t0 = System.nanoTime();
      counts = store.nearestCounts(0, candidates, null, 1);
      best = Math.min(best, seconds(t0));
    }
    return new TimedVote(counts, best);
  }

  /**
   * A fast stand-in embedder for the vote: each text's vector is a unit Gaussian vector seeded by
   * the text, the same on every JVM. Not a model: it only gives the vote realistic shapes.
   */
  static final class SeededVectors implements TextEmbedder, Serializable {
    private static final long serialVersionUID = 1L;
    private final int dim;

    SeededVectors(int dim) {
      this.dim = dim;
    }

    @Override
    public String name() {
      return "bench-seeded-vectors";
    }

    @Override
    public int dimension() {
      return dim;
    }

    @Override
    public boolean normalized() {
      return true;
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][];
      for (int i = 0; i < out.length; i++) {
        SplittableRandom r = new SplittableRandom(texts.get(i).hashCode() * 0x9E3779B97F4A7C15L);
        float[] v = new float[dim];
        double s = 0;
        for (int j = 0; j < dim; j++) {
          double u = r.nextDouble();
          double w = r.nextDouble();
          v[j] = (float) (Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * w));
          s += v[j] * v[j];
        }
        float inv = (float) (1 / Math.sqrt(s));
        for (int j = 0; j < dim; j++) {
          v[j] *= inv;
        }
        out[i] = v;
      }
      return out;
    }
  }
}
