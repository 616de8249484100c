package dev.secpe.evolution.engine;

import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.llm.ForwardingTextEmbedder;
import dev.secpe.llm.TextEmbedder;
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

  private final EvolutionSettings settings;
  private final AtomicBoolean cancelled;
  private final ExecutorService workers;

  public TimedEmbedder(TextEmbedder delegate, EvolutionSettings settings, AtomicBoolean cancelled) {
    super(delegate);
    this.settings = settings;
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
        settings.embeddingTimeout(),
        settings.providerRetries(),
        cancelled,
        () -> workers.submit(() -> delegate().embed(texts)));
  }

  /** Stops the workers; the delegate stays open (it belongs to the caller). */
  @Override
  public void close() {
    workers.shutdownNow();
  }
}
