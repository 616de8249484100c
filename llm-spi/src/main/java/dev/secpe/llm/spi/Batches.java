package dev.secpe.llm.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every batching embedder does around its calls, written once: split a request's texts into
 * batches of at most a given size, in order ({@link #of}), wait for the batches' calls on the
 * caller's thread ({@link #await}), and join the batches' vectors back into one array in the same
 * order ({@link #join}). {@link BlockingTextEmbedder} and the OpenAI embedder use it; so can a
 * provider of one's own.
 */
public final class Batches {

  private Batches() {}

  /**
   * {@code items} as consecutive batches of at most {@code size} (views of the list, in order; none
   * for an empty list).
   *
   * @throws IllegalArgumentException if {@code size < 1}
   */
  public static <T> List<List<T>> of(List<T> items, int size) {
    Objects.requireNonNull(items, "items");
    if (size < 1) {
      throw new IllegalArgumentException("batch size must be >= 1, got size=" + size);
    }
    List<List<T>> batches = new ArrayList<>();
    for (int i = 0; i < items.size(); i += size) {
      batches.add(items.subList(i, Math.min(items.size(), i + size)));
    }
    return batches;
  }

  /**
   * Waits for {@code future} (typically the batches' calls, from {@link ConcurrencyLimiter#mapAsync})
   * and returns its value. An interrupt of the waiting thread cancels the future (and so the calls
   * behind it), keeps the thread's interrupt status set, and throws {@code onInterrupt}'s exception;
   * so does a future that was cancelled. A failure is rethrown as is when unchecked, else as {@code
   * onFailure} of it, whose message must not quote the failure's (it may quote the private text).
   *
   * <pre>{@code
   * List<float[][]> parts = Batches.await(limiter.mapAsync(Batches.of(texts, 32), this::batch),
   *     () -> new ProviderException.Retryable("interrupted while embedding", null),
   *     e -> new ProviderException.Permanent("embedding failed: " + e.getClass().getSimpleName(), null));
   * return Batches.join(parts, texts.size());
   * }</pre>
   */
  public static <T> T await(
      CompletableFuture<T> future,
      Supplier<? extends RuntimeException> onInterrupt,
      Function<Throwable, ? extends RuntimeException> onFailure) {
    Objects.requireNonNull(future, "future");
    Objects.requireNonNull(onInterrupt, "onInterrupt");
    Objects.requireNonNull(onFailure, "onFailure");
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw onInterrupt.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw onFailure.apply(e.getCause());
    } catch (CancellationException e) {
      throw onInterrupt.get();
    }
  }

  /**
   * The rows of {@code parts}, in order, as one array of {@code total} rows (the rows themselves
   * are not copied).
   *
   * @throws IllegalArgumentException if the parts do not hold exactly {@code total} rows
   */
  public static float[][] join(List<float[][]> parts, int total) {
    float[][] out = new float[total][];
    int k = 0;
    for (float[][] part : parts) {
      if (k + part.length > total) {
        throw new IllegalArgumentException("the batches hold more than total=" + total + " rows");
      }
      System.arraycopy(part, 0, out, k, part.length);
      k += part.length;
    }
    if (k != total) {
      throw new IllegalArgumentException("the batches hold " + k + " rows, not total=" + total);
    }
    return out;
  }
}
