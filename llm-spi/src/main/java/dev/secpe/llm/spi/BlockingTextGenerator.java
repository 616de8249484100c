package dev.secpe.llm.spi;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TextGenerator} over a client library whose calls block (LangChain4j's and Spring AI's
 * chat models, a vendor's SDK): a subclass turns a request into the library's form ({@link
 * #prepare}), makes one blocking call ({@link #call}) and redacts the library's failures ({@link
 * #redact}); this class does the rest the contract asks for.
 *
 * <p>Each request is one call, run on the {@link BlockingSettings#executor(Executor) executor} of the
 * caller's choosing (by default a pool of {@code maxConcurrency} daemon threads of the generator's
 * own), at most {@link BlockingSettings#maxConcurrency(int) maxConcurrency} at a time across all callers;
 * results come back in request order. Cancelling the future of {@link #generateAsync} interrupts the
 * calls in flight and keeps queued ones from starting; a call longer than {@link
 * BlockingSettings#timeout(Duration) timeout} is interrupted the same way and fails its batch with a {@link
 * ProviderException.Retryable}. Thread-safe.
 *
 * @param <P> the library's form of one request
 */
public abstract class BlockingTextGenerator<P> implements TextGenerator {

  /** The default {@link BlockingSettings#timeout(Duration)}: 2 minutes per call. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** The default {@link BlockingSettings#maxConcurrency(int)}: 4 calls at once. */
  public static final int DEFAULT_CONCURRENCY = 4;

  private final String name;
  private final Locality locality;
  private final Duration timeout;
  private final ConcurrencyLimiter limiter;
  private final Executor executor;
  private final @Nullable ExecutorService ownPool;
  private final String what;
  private volatile boolean closed;

  /**
   * A generator with {@code settings}.
   *
   * @param defaultName the name when the settings set none
   */
  protected BlockingTextGenerator(BlockingSettings<?> settings, String defaultName) {
    this.name = settings.name != null ? settings.name : Objects.requireNonNull(defaultName, "defaultName");
    this.locality = settings.locality != null ? settings.locality : Locality.REMOTE;
    this.timeout = settings.timeout != null ? settings.timeout : DEFAULT_TIMEOUT;
    int concurrency = settings.maxConcurrency != null ? settings.maxConcurrency : DEFAULT_CONCURRENCY;
    this.limiter = new ConcurrencyLimiter(concurrency);
    if (settings.executor != null) {
      this.executor = settings.executor;
      this.ownPool = null;
    } else {
      this.ownPool = BlockingCalls.daemonPool(concurrency, "secpe-" + name);
      this.executor = ownPool;
    }
    this.what = "chat model '" + name + "'";
  }

  /**
   * The library's form of {@code request}, made on the caller's thread before anything is sent;
   * throws {@link IllegalArgumentException} for a request the library cannot take.
   */
  protected abstract P prepare(GenerationRequest request);

  /** One blocking call; interrupted when cancelled or timed out. */
  protected abstract GenerationResult call(P prepared) throws Exception;

  /**
   * The exception the caller sees for the library's {@code failure} of {@code what} ("chat model
   * 'name'"): a {@link ProviderException} whose message must not quote the failure's message, which
   * may quote the request. Not called for {@link ProviderException}s and {@link ProviderFault}s,
   * which pass through.
   */
  protected abstract RuntimeException redact(String what, Throwable failure);

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Locality locality() {
    return locality;
  }

  /** The longest a call may take. */
  public final Duration timeout() {
    return timeout;
  }

  /** The most calls in flight at once. */
  public final int maxConcurrency() {
    return limiter.maxInFlight();
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException for a request the library cannot take (before anything is
   *     sent)
   */
  @Override
  public final CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    List<P> prepared = new ArrayList<>(requests.size());
    for (GenerationRequest r : requests) {
      prepared.add(prepare(Objects.requireNonNull(r, "requests must not contain null")));
    }
    if (closed) {
      return CompletableFuture.failedFuture(ProviderFault.closed(name));
    }
    return limiter.mapAsync(prepared, p -> BlockingCalls.start(executor, () -> call(p), timeout,
        () -> new ProviderException.Retryable(
            what + " did not answer within " + timeout + "; the call was cancelled", null),
        e -> e instanceof ProviderException || e instanceof ProviderFault
            ? (RuntimeException) e : redact(what, e),
        () -> ProviderFault.closed(name)));
  }

  /**
   * Stops this generator: later calls fail with {@link ProviderFault#closed}; its own threads (if
   * it was given no executor) are interrupted. A caller's executor and the library's model stay
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
    return getClass().getSimpleName() + "{name=" + name + ", locality=" + locality + ", maxConcurrency="
        + limiter.maxInFlight() + ", timeout=" + timeout + "}";
  }
}
