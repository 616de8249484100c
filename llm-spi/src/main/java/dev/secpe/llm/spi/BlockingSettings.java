package dev.secpe.llm.spi;

import dev.secpe.llm.Locality;
import java.time.Duration;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The settings every {@link BlockingTextGenerator} and {@link BlockingTextEmbedder} has; an
 * adapter's builder extends it (an embedder's through {@link BlockingTextEmbedder.Settings}). Each
 * option set twice keeps the last value, as in every builder of the library; values are checked at
 * once; {@link #toString()} shows only what was set.
 *
 * @param <B> the builder
 */
public abstract class BlockingSettings<B extends BlockingSettings<B>> {

  @Nullable String name;
  @Nullable Locality locality;
  @Nullable Integer maxConcurrency;
  @Nullable Executor executor;
  @Nullable Duration timeout;
  @Nullable Object model;

  /** For subclasses. */
  protected BlockingSettings() {}

  /**
   * For the builder of an adapter over a client library's {@code model}: the model's class name
   * appears in this builder's {@link #toString()} and in the built generator's or embedder's.
   *
   * @throws NullPointerException naming "model" when it is null
   */
  protected BlockingSettings(Object model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  /** This builder. */
  protected abstract B self();

  /** The name in reports and messages (non-blank); the adapter says its default. */
  public B name(String name) {
    this.name = nonBlank(name, "name");
    return self();
  }

  /**
   * Where the model runs; default {@link Locality#REMOTE}. Say {@link Locality#LOCAL} only for a
   * model in this process or on this host.
   */
  public B locality(Locality locality) {
    this.locality = Objects.requireNonNull(locality, "locality");
    return self();
  }

  /** The most calls in flight at once, across all callers, >= 1; default: the adapter's (4 calls for a generator, 2 batches for an embedder). */
  public B maxConcurrency(int maxConcurrency) {
    this.maxConcurrency = atLeastOne(maxConcurrency, "maxConcurrency");
    return self();
  }

  /**
   * The executor the blocking calls run on (virtual threads, a pool the application manages);
   * default: a pool of {@code maxConcurrency} daemon threads that {@code close()} stops. A
   * caller's executor is never shut down.
   */
  public B executor(Executor executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
    return self();
  }

  /** How long one call (one batch, for an embedder) may take before it is cancelled, > 0; default 2 minutes. */
  public B timeout(Duration timeout) {
    this.timeout = positive(timeout, "timeout");
    return self();
  }

  /** Adds the adapter's own settings, those that were set, to {@link #toString()}. */
  protected void describe(StringJoiner set) {}

  /** The options that were set, and only those. */
  @Override
  public String toString() {
    StringJoiner j = new StringJoiner(", ", getClass().getName().substring(getClass().getName().lastIndexOf('.') + 1)
        .replace('$', '.') + "{", "}");
    add(j, "name", name);
    add(j, "locality", locality);
    add(j, "maxConcurrency", maxConcurrency);
    add(j, "executor", executor == null ? null : executor.getClass().getName());
    add(j, "timeout", timeout);
    add(j, "model", model == null ? null : model.getClass().getName());
    describe(j);
    return j.toString();
  }

  /** Adds {@code option=value} to {@code j} when the value was set. */
  protected static void add(StringJoiner j, String option, @Nullable Object value) {
    if (value != null) {
      j.add(option + "=" + value);
    }
  }

  static int atLeastOne(int n, String option) {
    if (n < 1) {
      throw new IllegalArgumentException(option + " must be >= 1, got " + option + "=" + n);
    }
    return n;
  }

  static Duration positive(Duration d, String option) {
    Objects.requireNonNull(d, option);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(option + " must be positive, got " + option + "=" + d);
    }
    return d;
  }

  static String nonBlank(String s, String option) {
    Objects.requireNonNull(s, option);
    if (s.isBlank()) {
      throw new IllegalArgumentException(option + " must not be blank, got " + option + "=\"" + s + "\"");
    }
    return s;
  }
}
