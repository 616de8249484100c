package dev.secpe.llm;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A text generator: random samples and variations of synthetic text. It only ever sees public
 * or synthetic text; the evolution engine's types guarantee private records never reach it.
 *
 * <p>Implementations are thread-safe and bound their own concurrency.
 */
public interface TextGenerator extends AutoCloseable {

  /** A short name, e.g. "openai" or "embedded-ngram". */
  String name();

  /** Where the model runs. */
  Locality locality();

  /**
   * Submits every request; the future completes with one non-null result per request, in request
   * order, each with a non-null, non-blank text; or exceptionally with a {@link ProviderException}
   * ({@link ProviderException.Retryable} for failures worth trying again, such as rate limits).
   * Cancelling the future cancels the requests still outstanding. The evolution engine stops a run
   * with a {@link ProviderFault} on a missing (null) result or a wrong count, and names the
   * request on a blank text; a future that never completes is cancelled after the run's
   * generation timeout.
   */
  CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests);

  /**
   * Blocking form of {@link #generateAsync(List)}; provider failures are rethrown as is (a checked
   * one inside a {@link CompletionException}). An interrupt of the waiting thread cancels the
   * requests (the future), keeps the thread's interrupt status set and throws {@link
   * ProviderException.Retryable}; a cancelled future throws {@link CancellationException}.
   */
  default List<GenerationResult> generate(List<GenerationRequest> requests) {
    CompletableFuture<List<GenerationResult>> results = generateAsync(requests);
    try {
      return results.get();
    } catch (InterruptedException e) {
      results.cancel(true);
      Thread.currentThread().interrupt();
      throw new ProviderException.Retryable("interrupted while generating");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new CompletionException(e.getCause());
    }
  }

  /** Releases resources (threads, connections, native sessions). */
  @Override
  default void close() {}
}
