package dev.secpe.llm.testkit;

import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextEmbedder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A deterministic embedder for tests: signed feature hashing of lower-cased words and word
 * bigrams, L2-normalised (texts with no words map to a fixed unit vector). Texts that share words
 * get similar vectors, so nearest-neighbour logic behaves sensibly. Each {@link #embed(List)} is
 * one call for the {@link FaultPlan}. Thread-safe.
 *
 * <pre>{@code
 * TextEmbedder e = FakeTextEmbedder.builder().dimension(32)
 *     .faults(FaultPlan.none().failingEvery(3, FaultPlan.Failure.RETRYABLE)).build();
 * }</pre>
 */
public final class FakeTextEmbedder extends Fake implements TextEmbedder {

  private final int dimension;

  private FakeTextEmbedder(Builder b) {
    super(b);
    this.dimension = b.dimension;
  }

  /** A builder: name "fake", dimension 64, LOCAL, no faults. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    ProviderException failure = faults.next(name);
    sleep(faults.plan().latency().toNanos());
    if (failure != null) {
      throw failure;
    }
    float[][] out = new float[texts.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = vector(Objects.requireNonNull(texts.get(i), "texts must not contain null"));
    }
    return out;
  }

  /** The vector of one text (what {@link #embed} returns for it). */
  public float[] vector(String text) {
    double[] acc = new double[dimension];
    String[] words = text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+");
    String prev = null;
    for (String w : words) {
      if (w.isEmpty()) {
        continue;
      }
      add(acc, w, 1.0);
      if (prev != null) {
        add(acc, prev + " " + w, 0.5);
      }
      prev = w;
    }
    double norm = 0;
    for (double a : acc) {
      norm += a * a;
    }
    float[] v = new float[dimension];
    if (norm == 0) {
      v[0] = 1f;
      return v;
    }
    double inv = 1 / Math.sqrt(norm);
    for (int i = 0; i < dimension; i++) {
      v[i] = (float) (acc[i] * inv);
    }
    return v;
  }

  private void add(double[] acc, String feature, double weight) {
    long h = FakeHash.fnv1a64(feature.getBytes(StandardCharsets.UTF_8));
    int bucket = (int) Long.remainderUnsigned(h, dimension);
    acc[bucket] += ((h >>> 63) == 0 ? weight : -weight);
  }

  static void sleep(long nanos) {
    if (nanos <= 0) {
      return;
    }
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProviderException.Retryable("interrupted", e);
    }
  }

  @Override
  public String toString() {
    return "FakeTextEmbedder{" + name + ", dimension=" + dimension + ", " + locality + "}";
  }

  /**
   * Configures a {@link FakeTextEmbedder}: the name, claimed locality and faults of every fake, and
   * the dimension.
   */
  public static final class Builder extends Fake.Settings<Builder> {
    private int dimension = 64;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The dimension, >= 2; default 64. */
    public Builder dimension(int value) {
      this.dimension = atLeast(2, value, "dimension");
      return this;
    }

    /** A new fake (with its own call counter). */
    public FakeTextEmbedder build() {
      return new FakeTextEmbedder(this);
    }
  }
}
