package dev.secpe.llm.spi;

import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link BlockingTextGenerator} and a {@link BlockingTextEmbedder} share, written once: the
 * name, locality and timeout from the settings, the concurrency bound, the executor (the caller's,
 * or a daemon pool of its own that {@link #close()} stops), the closed flag, and how one blocking
 * call is started, timed out, refused once closed and has its failure redacted.
 */
final class BlockingModel {

  /** One blocking call of the library on {@code item}. */
  @FunctionalInterface
  interface Call<T, R> {
    R call(T item) throws Exception;
  }

  final String name;
  final Locality locality;
  final Duration timeout;
  final ConcurrencyLimiter limiter;
  /** How messages call the model: "chat model 'name'", "embedding model 'name'". */
  final String what;
  private final @Nullable Object client;
  private final Executor executor;
  private final @Nullable ExecutorService ownPool;
  private final BiFunction<String, Throwable, RuntimeException> redact;
  private volatile boolean closed;

  /**
   * @param kind "chat model" or "embedding model"
   * @param redact the adapter's redaction, called only for failures that are neither a {@link
   *     ProviderException} nor a {@link ProviderFault}
   */
  BlockingModel(BlockingSettings<?> settings, String defaultName, String kind, int defaultConcurrency,
      BiFunction<String, Throwable, RuntimeException> redact) {
    this.name = settings.name != null ? settings.name : Objects.requireNonNull(defaultName, "defaultName");
    this.locality = settings.locality != null ? settings.locality : Locality.REMOTE;
    this.timeout = settings.timeout != null ? settings.timeout : BlockingTextGenerator.DEFAULT_TIMEOUT;
    this.client = settings.model;
    int concurrency = settings.maxConcurrency != null ? settings.maxConcurrency : defaultConcurrency;
    this.limiter = new ConcurrencyLimiter(concurrency);
    if (settings.executor != null) {
      this.executor = settings.executor;
      this.ownPool = null;
    } else {
      this.ownPool = BlockingCalls.daemonPool(concurrency, "secpe-" + name);
      this.executor = ownPool;
    }
    this.what = kind + " '" + name + "'";
    this.redact = redact;
  }

  /**
   * {@code call} on each item, on the executor, at most {@link ConcurrencyLimiter#maxInFlight()} at
   * a time, results in order; each call is cancelled after the timeout (a {@link
   * ProviderException.Retryable}) and its failure redacted.
   */
  <T, R> CompletableFuture<List<R>> map(List<T> items, Call<? super T, R> call) {
    return limiter.mapAsync(items, item -> BlockingCalls.start(executor, () -> call.call(item), timeout,
        () -> new ProviderException.Retryable(
            what + " did not answer within " + timeout + "; the call was cancelled", null),
        e -> pass(what, e),
        () -> ProviderFault.closed(name)));
  }

  /** {@code failure} as the caller sees it: the library's own failures redacted, ours as they are. */
  RuntimeException pass(String what, Throwable failure) {
    return failure instanceof ProviderException || failure instanceof ProviderFault
        ? (RuntimeException) failure
        : redact.apply(what, failure);
  }

  boolean closed() {
    return closed;
  }

  void close() {
    closed = true;
    if (ownPool != null) {
      BlockingCalls.stop(ownPool);
    }
  }

  /**
   * "Type{name=..., locality=..., [more, ]maxConcurrency=..., timeout=...[, model=...]}".
   *
   * @param more the owner's own settings, "" or ending in ", "
   */
  String describe(Object owner, String more) {
    return owner.getClass().getSimpleName() + "{name=" + name + ", locality=" + locality + ", " + more
        + "maxConcurrency=" + limiter.maxInFlight() + ", timeout=" + timeout
        + (client == null ? "" : ", model=" + client.getClass().getName()) + "}";
  }
}
