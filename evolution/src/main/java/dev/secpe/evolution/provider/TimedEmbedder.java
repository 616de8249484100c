package dev.secpe.evolution.provider;

import dev.secpe.llm.ForwardingTextEmbedder;
import dev.secpe.llm.TextEmbedder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The run's embedder under its control: each batch runs on a worker thread with the run's
 * embedding timeout, retries and cancellation ({@link ProviderCalls}). A timed-out or cancelled
 * batch's thread is interrupted; the next attempt gets a fresh thread. {@link #close()} stops the
 * workers and leaves the delegate open (it belongs to the caller).
 */
public final class TimedEmbedder extends ForwardingTextEmbedder {

  private final Duration timeout;
  private final int retries;
  private final AtomicBoolean cancelled;
  private final ExecutorService workers;

  /**
   * The {@code delegate} under the run's control: each batch times out after {@code timeout} and
   * is tried {@code retries} more times; {@code cancelled} stops the run.
   */
  public TimedEmbedder(TextEmbedder delegate, Duration timeout, int retries, AtomicBoolean cancelled) {
    super(delegate);
    this.timeout = timeout;
    this.retries = retries;
    this.cancelled = cancelled;
    AtomicInteger n = new AtomicInteger();
    this.workers =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "secpe-embedding-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @Override
  public float[][] embed(List<String> texts) {
    return ProviderCalls.call(
        name(),
        texts.size(),
        timeout,
        retries,
        cancelled,
        () -> workers.submit(() -> delegate().embed(texts)));
  }

  /** Stops the workers; the delegate stays open (it belongs to the caller). */
  @Override
  public void close() {
    workers.shutdownNow();
  }
}
