package dev.secpe.llm.springai;

import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.BlockingCalls;
import dev.secpe.llm.spi.ConcurrencyLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.embedding.EmbeddingModel;

/**
 * Any Spring AI {@link EmbeddingModel} as a SecPE {@link TextEmbedder}, in the shape of {@code
 * LangChain4jTextEmbedder}.
 *
 * <p><b>Locality</b> is {@link Locality#REMOTE} unless the builder says {@link Locality#LOCAL}:
 * Spring AI cannot tell where a model runs. An embedder sees <em>private</em> text, and the
 * evolution builders refuse a remote one unless the caller allows it ({@code
 * allowRemoteEmbedding()}); declare {@code LOCAL} only for a model in this process or on this host.
 *
 * <p><b>Batching and concurrency.</b> The texts of one {@link #embed} are sent in batches of
 * {@link Builder#batchSize(int)} (one {@link EmbeddingModel#embed(List)} each), on the builder's
 * {@link Builder#executor(Executor) executor}, at most {@link Builder#maxConcurrency(int)} batches
 * at a time across all callers. A batch longer than {@link Builder#timeout(Duration)} is cancelled
 * (interrupted) and fails the call with a {@link ProviderException.Retryable}.
 *
 * <p><b>Vectors</b> are L2-normalised here, so {@link #normalized()} is true; the dimension is the
 * builder's or, by default, {@link EmbeddingModel#dimensions()} (which may embed a fixed public
 * probe text once).
 *
 * <p><b>Errors</b> never carry text: a model's exception becomes a {@link ProviderException} naming
 * only its type; a wrong number of vectors or a wrong dimension is a {@link ProviderFault}. The
 * model is the caller's: {@link #close()} leaves it open. Thread-safe.
 */
public final class SpringAiTextEmbedder implements TextEmbedder {

  /** The default {@link Builder#batchSize(int)}: 32 texts per call. */
  public static final int DEFAULT_BATCH_SIZE = 32;

  /** The default {@link Builder#maxConcurrency(int)}: 2 batches at once. */
  public static final int DEFAULT_CONCURRENCY = 2;

  /** The default {@link Builder#timeout(Duration)}: 2 minutes per batch. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private final EmbeddingModel model;
  private final String name;
  private final Locality locality;
  private final int batchSize;
  private final Duration timeout;
  private final ConcurrencyLimiter limiter;
  private final Executor executor;
  private final @Nullable ExecutorService ownPool;
  private final String what;
  private volatile int dimension;
  private volatile boolean closed;

  private SpringAiTextEmbedder(Builder b) {
    this.model = b.model;
    this.name = b.name != null ? b.name : "spring-ai";
    this.locality = b.locality != null ? b.locality : Locality.REMOTE;
    this.batchSize = b.batchSize != null ? b.batchSize : DEFAULT_BATCH_SIZE;
    this.timeout = b.timeout != null ? b.timeout : DEFAULT_TIMEOUT;
    this.dimension = b.dimension != null ? b.dimension : 0;
    int concurrency = b.maxConcurrency != null ? b.maxConcurrency : DEFAULT_CONCURRENCY;
    this.limiter = new ConcurrencyLimiter(concurrency);
    if (b.executor != null) {
      this.executor = b.executor;
      this.ownPool = null;
    } else {
      this.ownPool = BlockingCalls.daemonPool(concurrency, "secpe-" + name);
      this.executor = ownPool;
    }
    this.what = "embedding model '" + name + "'";
  }

  /** A builder for an embedder of {@code model}. */
  public static Builder builder(EmbeddingModel model) {
    return new Builder(model);
  }

  /** An embedder of {@code model} with the defaults (remote; batches of 32, 2 at once). */
  public static SpringAiTextEmbedder of(EmbeddingModel model) {
    return builder(model).build();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Locality locality() {
    return locality;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  /** The Spring AI model this embedder calls. */
  public EmbeddingModel model() {
    return model;
  }

  @Override
  public int dimension() {
    int d = dimension;
    if (d == 0) {
      synchronized (this) {
        if (dimension == 0) {
          int asked;
          try {
            asked = model.dimensions();
          } catch (RuntimeException e) {
            throw Calls.redact(what + " (asked for its dimension)", e);
          }
          if (asked < 1) {
            throw new ProviderException.Permanent(
                what + " reports dimension " + asked + "; set SpringAiTextEmbedder.Builder.dimension", null);
          }
          dimension = asked;
        }
        d = dimension;
      }
    }
    return d;
  }

  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (String t : texts) {
      Objects.requireNonNull(t, "texts must not contain null");
    }
    if (texts.isEmpty()) {
      return new float[0][];
    }
    if (closed) {
      throw ProviderFault.closed(name);
    }
    int d = dimension();
    List<List<String>> batches = new ArrayList<>();
    for (int i = 0; i < texts.size(); i += batchSize) {
      batches.add(texts.subList(i, Math.min(texts.size(), i + batchSize)));
    }
    CompletableFuture<List<float[][]>> all = limiter.mapAsync(
        batches, b -> Calls.start(executor, () -> batch(b, d), timeout, what, name));
    List<float[][]> parts = BlockingCalls.await(all,
        () -> new ProviderException.Retryable("interrupted while embedding with " + what, null),
        e -> Calls.redact(what, e));
    float[][] out = new float[texts.size()][];
    int k = 0;
    for (float[][] part : parts) {
      for (float[] v : part) {
        out[k++] = v;
      }
    }
    return out;
  }

  private float[][] batch(List<String> texts, int d) {
    List<float[]> got = model.embed(texts);
    if (got == null || got.size() != texts.size()) {
      throw ProviderFault.rowCount(name, got == null ? 0 : got.size(), texts.size());
    }
    float[][] out = new float[texts.size()][];
    for (int i = 0; i < out.length; i++) {
      float[] e = got.get(i);
      if (e == null) {
        throw ProviderFault.missing(name, i);
      }
      float[] v = e.clone();
      if (v.length != d) {
        throw ProviderFault.dimension(name, i, v.length, d);
      }
      double sq = 0;
      for (float x : v) {
        sq += (double) x * x;
      }
      // The vector's values are a function of private text: the message names only the position.
      if (!(sq > 0) || !Double.isFinite(sq)) {
        throw new ProviderException.Permanent(
            what + " returned a zero or non-finite vector for input " + i + " of its batch", null);
      }
      float inv = (float) (1 / Math.sqrt(sq));
      for (int j = 0; j < v.length; j++) {
        v[j] *= inv;
      }
      out[i] = v;
    }
    return out;
  }

  /**
   * Stops this embedder: later calls fail with {@link ProviderFault#closed}; its own threads (if
   * the builder was given no executor) are interrupted. The model and a caller's executor stay
   * open.
   */
  @Override
  public void close() {
    closed = true;
    if (ownPool != null) {
      BlockingCalls.stop(ownPool);
    }
  }

  @Override
  public String toString() {
    return "SpringAiTextEmbedder{name=" + name + ", locality=" + locality + ", batchSize=" + batchSize
        + ", maxConcurrency=" + limiter.maxInFlight() + ", timeout=" + timeout + ", model="
        + model.getClass().getName() + "}";
  }

  /**
   * Settings of a {@link SpringAiTextEmbedder}; each may be set once. {@link #build()} leaves the
   * builder reusable (every embedder built has its own threads).
   */
  public static final class Builder {
    private final EmbeddingModel model;
    private @Nullable String name;
    private @Nullable Locality locality;
    private @Nullable Integer batchSize;
    private @Nullable Integer maxConcurrency;
    private @Nullable Integer dimension;
    private @Nullable Executor executor;
    private @Nullable Duration timeout;

    private Builder(EmbeddingModel model) {
      this.model = Objects.requireNonNull(model, "model");
    }

    /** The name in reports and messages; default "spring-ai". */
    public Builder name(String name) {
      Calls.once(this.name, "name");
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank, got name=\"" + name + "\"");
      }
      this.name = name;
      return this;
    }

    /**
     * Where the model runs; default {@link Locality#REMOTE}. Say {@link Locality#LOCAL} only for a
     * model in this process or on this host: private text goes to it without further consent.
     */
    public Builder locality(Locality locality) {
      Calls.once(this.locality, "locality");
      this.locality = Objects.requireNonNull(locality, "locality");
      return this;
    }

    /** Texts per {@link EmbeddingModel#embed(List)} call, >= 1; default {@value SpringAiTextEmbedder#DEFAULT_BATCH_SIZE}. */
    public Builder batchSize(int batchSize) {
      Calls.once(this.batchSize, "batchSize");
      this.batchSize = Calls.atLeastOne(batchSize, "batchSize");
      return this;
    }

    /** The most batches in flight at once, across all callers, >= 1; default {@value SpringAiTextEmbedder#DEFAULT_CONCURRENCY}. */
    public Builder maxConcurrency(int maxConcurrency) {
      Calls.once(this.maxConcurrency, "maxConcurrency");
      this.maxConcurrency = Calls.atLeastOne(maxConcurrency, "maxConcurrency");
      return this;
    }

    /** The vectors' dimension, >= 1; default: {@link EmbeddingModel#dimensions()}, asked once. */
    public Builder dimension(int dimension) {
      Calls.once(this.dimension, "dimension");
      this.dimension = Calls.atLeastOne(dimension, "dimension");
      return this;
    }

    /**
     * The executor the blocking calls run on; default: a pool of {@code maxConcurrency} daemon
     * threads that {@link #close()} stops. A caller's executor is never shut down by the embedder.
     */
    public Builder executor(Executor executor) {
      Calls.once(this.executor, "executor");
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** How long one batch may take before it is cancelled, > 0; default 2 minutes. */
    public Builder timeout(Duration timeout) {
      Calls.once(this.timeout, "timeout");
      this.timeout = Calls.positive(timeout, "timeout");
      return this;
    }

    /** The embedder. */
    public SpringAiTextEmbedder build() {
      return new SpringAiTextEmbedder(this);
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("SpringAiTextEmbedder.Builder{model=").append(model.getClass().getName());
      if (name != null) {
        s.append(", name=").append(name);
      }
      if (locality != null) {
        s.append(", locality=").append(locality);
      }
      if (batchSize != null) {
        s.append(", batchSize=").append(batchSize);
      }
      if (maxConcurrency != null) {
        s.append(", maxConcurrency=").append(maxConcurrency);
      }
      if (dimension != null) {
        s.append(", dimension=").append(dimension);
      }
      if (executor != null) {
        s.append(", executor=").append(executor.getClass().getName());
      }
      if (timeout != null) {
        s.append(", timeout=").append(timeout);
      }
      return s.append('}').toString();
    }
  }
}
