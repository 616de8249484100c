package dev.secpe.cli.bench;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Synthetic embedded records in SecPE's regime, for the split benchmark: no model, so that what is
 * timed is the method, not an embedder. Record i is a short text naming its topic and itself
 * ("c17 s123 ..."); a share of the records also hold an e-mail address (a PII secret, shared by
 * two neighbouring records). The {@link Embedder} reads the topic and the nonce back and returns
 * the topic's seeded unit direction plus seeded Gaussian noise, normalised: vectors with cluster
 * structure, the same on every JVM. The {@link Generator} writes candidates the same way: a random
 * topic, or (a variation) its parent's topic most of the time. Topics are drawn unevenly for the
 * records (the private side) and evenly for the first candidates, so evolution has somewhere to go.
 */
public final class TopicRows {

  /** Per-coordinate standard deviation of a row's noise (its norm about 1.6 at d = 384). */
  private static final double NOISE = 0.08;

  /** A variation keeps its parent's topic with this probability. */
  private static final double KEEP_TOPIC = 0.8;

  private TopicRows() {}

  /**
   * The records' shape.
   *
   * @param records how many records
   * @param secretShare the share of records that hold an e-mail address
   * @param dim the embeddings' dimension
   * @param topics how many topics the vectors cluster around
   * @param seed seeds the topics, the noise and which records hold a secret
   */
  public record Config(int records, double secretShare, int dim, int topics, long seed) implements Serializable {}

  /** The text of record {@code i}. */
  public static String text(Config c, long i) {
    SplittableRandom r = new SplittableRandom(mix(c.seed() ^ mix(i)));
    double u = r.nextDouble();
    int topic = (int) (c.topics() * u * u); // skewed towards the first topics
    String base = "c" + topic + " s" + i + " note about order " + i;
    return r.nextDouble() < c.secretShare() ? base + " reply to user" + (i >> 1) + "@mail.example" : base;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Reads "c{topic} {s|g}{nonce} ..." back into a vector. */
  public static final class Embedder implements TextEmbedder, Serializable {
    private static final long serialVersionUID = 1L;
    private final int dim;
    private final long seed;

    /** Vectors of dimension {@code dim} around topic directions seeded by {@code seed}. */
    public Embedder(int dim, long seed) {
      this.dim = dim;
      this.seed = seed;
    }

    @Override
    public String name() {
      return "bench-topic-vectors";
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
        out[i] = vector(texts.get(i));
      }
      return out;
    }

    private float[] vector(String text) {
      int space = text.indexOf(' ');
      int end = text.indexOf(' ', space + 1);
      int topic = Integer.parseInt(text.substring(1, space));
      long nonce = Long.parseLong(text.substring(space + 2, end < 0 ? text.length() : end));
      boolean candidate = text.charAt(space + 1) == 'g';
      SplittableRandom centre = new SplittableRandom(mix(seed ^ 0x5DEECE66DL ^ mix(topic)));
      SplittableRandom noise = new SplittableRandom(mix(seed ^ mix(nonce) ^ (candidate ? 0x9E3779B97F4A7C15L : 0)));
      double[] v = new double[dim];
      double cn = 0;
      for (int j = 0; j < dim; j++) {
        v[j] = centre.nextGaussian();
        cn += v[j] * v[j];
      }
      double scale = 1 / Math.sqrt(cn);
      double n = 0;
      for (int j = 0; j < dim; j++) {
        v[j] = v[j] * scale + NOISE * noise.nextGaussian();
        n += v[j] * v[j];
      }
      float[] out = new float[dim];
      double inv = 1 / Math.sqrt(n);
      for (int j = 0; j < dim; j++) {
        out[j] = (float) (v[j] * inv);
      }
      return out;
    }
  }

  /**
   * Candidates in the records' format: a random one names an evenly drawn topic; a variation its
   * parent's topic (or, with probability 0.2, a random one). Every text is new (a counter).
   */
  public static final class Generator implements TextGenerator {
    private final int topics;
    private final AtomicLong next = new AtomicLong();
    private final SplittableRandom rnd;

    /** Candidates over {@code topics} topics, drawn from {@code seed}. */
    public Generator(int topics, long seed) {
      this.topics = topics;
      this.rnd = new SplittableRandom(seed);
    }

    @Override
    public String name() {
      return "bench-topic-candidates";
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public synchronized CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
      List<GenerationResult> out = new ArrayList<>(requests.size());
      for (GenerationRequest r : requests) {
        int topic = rnd.nextInt(topics);
        GenerationTask t = r.task();
        String parent = t instanceof GenerationTask.FillIn f ? f.parent()
            : t instanceof GenerationTask.Rewrite w ? w.parent()
            : t instanceof GenerationTask.Cross x ? x.first()
            : null;
        if (parent != null && parent.startsWith("c") && rnd.nextDouble() < KEEP_TOPIC) {
          topic = Integer.parseInt(parent.substring(1, parent.indexOf(' ')));
        }
        out.add(new GenerationResult("c" + topic + " g" + next.getAndIncrement() + " candidate",
            GenerationResult.FinishReason.STOP, 0, 0));
      }
      return CompletableFuture.completedFuture(out);
    }
  }
}
