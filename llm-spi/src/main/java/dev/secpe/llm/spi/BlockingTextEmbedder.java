package dev.secpe.llm.spi;

import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TextEmbedder} over a client library whose calls block (LangChain4j's and Spring AI's
 * embedding models, a vendor's SDK): a subclass embeds one batch ({@link #call}), says the model's
 * dimension ({@link #askDimension}) and redacts the library's failures ({@link #redact}); this
 * class does the rest the contract asks for.
 *
 * <p>The texts of one {@link #embed} are sent in batches of {@link Settings#batchSize(int)
 * batchSize}, on the {@link BlockingSettings#executor(Executor) executor} of the caller's choosing,
 * at most {@link BlockingSettings#maxConcurrency(int) maxConcurrency} batches at a time across all
 * callers. A batch longer than the {@link BlockingSettings#timeout(Duration) timeout} is
 * interrupted and fails the call with a {@link ProviderException.Retryable}; so does an interrupt
 * of the calling thread, which also cancels the other batches. Vectors are checked (count,
 * dimension, finite, non-zero: a {@link ProviderFault} or a {@link ProviderException} naming only
 * positions, never text or values) and L2-normalised here, so {@link #normalized()} is true.
 * Thread-safe.
 */
public abstract class BlockingTextEmbedder implements TextEmbedder {

  /** The default {@link Settings#batchSize(int)}: 32 texts per call. */
  public static final int DEFAULT_BATCH_SIZE = 32;

  /** The default {@link BlockingSettings#maxConcurrency(int)} of an embedder: 2 batches at once. */
  public static final int DEFAULT_CONCURRENCY = 2;

  private final BlockingModel model;
  private final int batchSize;
  private volatile int dimension;

  /**
   * An embedder with {@code settings}.
   *
   * @param defaultName the name when the settings set none
   */
  protected BlockingTextEmbedder(Settings<?> settings, String defaultName) {
    this.model = new BlockingModel(settings, defaultName, "embedding model", DEFAULT_CONCURRENCY, this::redact);
    this.batchSize = settings.batchSize != null ? settings.batchSize : DEFAULT_BATCH_SIZE;
    this.dimension = settings.dimension != null ? settings.dimension : 0;
  }

  /** Embeds one batch, one vector per text in order; a blocking call, interrupted when cancelled or timed out. */
  protected abstract List<float[]> call(List<String> batch) throws Exception;

  /** The model's dimension, asked once when the settings set none (it may embed a public probe text). */
  protected abstract int askDimension();

  /**
   * The exception the caller sees for the library's {@code failure} of {@code what} ("embedding
   * model 'name'"): a {@link ProviderException} whose message must not quote the failure's message,
   * which may quote the (private) text. Not called for {@link ProviderException}s and {@link
   * ProviderFault}s, which pass through.
   */
  protected abstract RuntimeException redact(String what, Throwable failure);

  @Override
  public final String name() {
    return model.name;
  }

  @Override
  public final Locality locality() {
    return model.locality;
  }

  @Override
  public final boolean normalized() {
    return true;
  }

  /** Texts per call. */
  public final int batchSize() {
    return batchSize;
  }

  @Override
  public final int dimension() {
    int d = dimension;
    if (d == 0) {
      synchronized (this) {
        if (dimension == 0) {
          int asked;
          try {
            asked = askDimension();
          } catch (RuntimeException e) {
            throw model.pass(model.what + " (asked for its dimension)", e);
          }
          if (asked < 1) {
            throw new ProviderException.Permanent(
                model.what + " reports dimension " + asked + "; set the builder's dimension", null);
          }
          dimension = asked;
        }
        d = dimension;
      }
    }
    return d;
  }

  @Override
  public final float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (String t : texts) {
      Objects.requireNonNull(t, "texts must not contain null");
    }
    if (texts.isEmpty()) {
      return new float[0][];
    }
    if (model.closed()) {
      throw ProviderFault.closed(model.name);
    }
    int d = dimension();
    CompletableFuture<List<float[][]>> all = model.map(Batches.of(texts, batchSize), b -> checked(call(b), b.size(), d));
    List<float[][]> parts = Batches.await(all,
        () -> new ProviderException.Retryable("interrupted while embedding with " + model.what, null),
        e -> model.pass(model.what, e));
    return Batches.join(parts, texts.size());
  }

  private float[][] checked(@Nullable List<float[]> got, int n, int d) {
    if (got == null || got.size() != n) {
      throw ProviderFault.rowCount(model.name, got == null ? 0 : got.size(), n);
    }
    float[][] out = new float[n][];
    for (int i = 0; i < n; i++) {
      float[] e = got.get(i);
      if (e == null) {
        throw ProviderFault.missing(model.name, i);
      }
      if (e.length != d) {
        throw ProviderFault.dimension(model.name, i, e.length, d);
      }
      float[] v = e.clone();
      double sq = 0;
      for (float x : v) {
        sq += (double) x * x;
      }
      // The vector's values are a function of private text: the message names only the position.
      if (!(sq > 0) || !Double.isFinite(sq)) {
        throw new ProviderException.Permanent(
            model.what + " returned a zero or non-finite vector for input " + i + " of its batch", null);
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
   * Stops this embedder: later calls fail with {@link ProviderFault#closed}; its own threads (if it
   * was given no executor) are interrupted. A caller's executor and the library's model stay open.
   */
  @Override
  public void close() {
    model.close();
  }

  @Override
  public String toString() {
    return model.describe(this, "batchSize=" + batchSize + ", ");
  }

  /**
   * The settings of a blocking embedder: those of every blocking provider, the batch size and the
   * dimension; an adapter's builder extends it.
   *
   * @param <B> the builder
   */
  public abstract static class Settings<B extends Settings<B>> extends BlockingSettings<B> {
    @Nullable Integer batchSize;
    @Nullable Integer dimension;

    /** For subclasses. */
    protected Settings() {}

    /**
     * For the builder of an adapter over a client library's {@code model} (see {@link
     * BlockingSettings#BlockingSettings(Object)}).
     */
    protected Settings(Object model) {
      super(model);
    }

    /** Texts per call, >= 1; default {@value BlockingTextEmbedder#DEFAULT_BATCH_SIZE}. */
    public B batchSize(int batchSize) {
      this.batchSize = atLeastOne(batchSize, "batchSize");
      return self();
    }

    /** The vectors' dimension, >= 1; default: the model's, asked once. */
    public B dimension(int dimension) {
      this.dimension = atLeastOne(dimension, "dimension");
      return self();
    }

    @Override
    protected void describe(StringJoiner set) {
      add(set, "batchSize", batchSize);
      add(set, "dimension", dimension);
    }
  }
}
