package dev.secpe.llm.testkit;

import dev.secpe.llm.Locality;
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
public final class FakeTextEmbedder implements TextEmbedder {

  private final String name;
  private final int dimension;
  private final Locality locality;
  private final FaultInjector faults;

  private FakeTextEmbedder(Builder b) {
    this.name = b.name;
    this.dimension = b.dimension;
    this.locality = b.locality;
    this.faults = new FaultInjector(b.faults);
  }

  /** A builder: name "fake", dimension 64, LOCAL, no faults. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return name;
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
  public Locality locality() {
    return locality;
  }

  /** Calls so far (each {@link #embed} is one). */
  public long calls() {
    return faults.calls();
  }

  /** Injected failures so far. */
  public long injectedFailures() {
    return faults.failures();
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

  /** Configures a {@link FakeTextEmbedder}. */
  public static final class Builder {
    private String name = "fake";
    private int dimension = 64;
    private Locality locality = Locality.LOCAL;
    private FaultPlan faults = FaultPlan.none();

    private Builder() {}

    /** The name; default "fake". */
    public Builder name(String value) {
      Objects.requireNonNull(value, "name");
      if (value.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      this.name = value;
      return this;
    }

    /** The dimension, >= 2; default 64. */
    public Builder dimension(int value) {
      if (value < 2) {
        throw new IllegalArgumentException("dimension must be >= 2, got dimension=" + value);
      }
      this.dimension = value;
      return this;
    }

    /** The claimed locality (REMOTE to exercise the privacy guard); default LOCAL. */
    public Builder locality(Locality value) {
      this.locality = Objects.requireNonNull(value, "locality");
      return this;
    }

    /** The faults to inject; default none. */
    public Builder faults(FaultPlan value) {
      this.faults = Objects.requireNonNull(value, "faults");
      return this;
    }

    /** A new fake (with its own call counter). */
    public FakeTextEmbedder build() {
      return new FakeTextEmbedder(this);
    }
  }
}
