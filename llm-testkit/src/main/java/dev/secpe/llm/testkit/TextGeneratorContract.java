package dev.secpe.llm.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.TextGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The contract every {@link TextGenerator} meets, as jqwik properties. A provider author
 * implements this interface in a test class and supplies the instance:
 *
 * <pre>{@code
 * class MyGeneratorContractTest implements TextGeneratorContract {
 *   private final TextGenerator gen = new MyGenerator(...);
 *   public TextGenerator generator() { return gen; }
 *   public boolean deterministicUnderSeed() { return true; } // only if it is
 * }
 * }</pre>
 *
 * <p>Checked: one result per request (including the empty batch), well-formed results, correct
 * behaviour under concurrent callers, cancellation that leaves the generator usable, and — for
 * generators that claim determinism under a seed — identical results for identical seeded
 * requests, in request order, whether sent in one batch or one at a time.
 */
public interface TextGeneratorContract {

  /** The generator under test; may return the same instance every time. */
  TextGenerator generator();

  /** Whether identical seeded requests give identical texts; default false. */
  default boolean deterministicUnderSeed() {
    return false;
  }

  /** The largest batch the properties send; default 6 (keep it small for remote providers). */
  default int maxBatchSize() {
    return 6;
  }

  /** How long one batch may take before the property fails; default 30 s. */
  default Duration batchTimeout() {
    return Duration.ofSeconds(30);
  }

  /** Sends {@code requests} and waits at most {@link #batchTimeout()}. */
  default List<GenerationResult> run(List<GenerationRequest> requests) throws Exception {
    return generator().generateAsync(requests).get(batchTimeout().toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One well-formed result per request. */
  @Property(tries = 8)
  default void oneResultPerRequest(@ForAll @IntRange(min = 0, max = 16) int size, @ForAll long seed)
      throws Exception {
    int n = Math.min(size, maxBatchSize());
    List<GenerationRequest> requests = ContractRequests.mixed(n, seed);
    List<GenerationResult> results = run(requests);
    assertEquals(n, results.size(), "one result per request");
    for (GenerationResult r : results) {
      assertNotNull(r, "no null results");
      assertFalse(r.text().isBlank(), "no blank texts: an evolution run cannot use them");
      assertTrue(r.promptTokens() >= 0 && r.completionTokens() >= 0, "token counts are >= 0");
    }
  }

  /** Identical seeded requests give identical texts (only when the generator claims it). */
  @Property(tries = 4)
  default void seededRequestsAreDeterministic(@ForAll long seed) throws Exception {
    if (!deterministicUnderSeed()) {
      return;
    }
    List<GenerationRequest> requests = ContractRequests.mixed(Math.min(4, maxBatchSize()), seed);
    assertEquals(texts(run(requests)), texts(run(requests)));
  }

  /** Results follow request order: a batch equals the same requests sent one by one. */
  @Property(tries = 3)
  default void resultsFollowRequestOrder(@ForAll long seed) throws Exception {
    if (!deterministicUnderSeed()) {
      return;
    }
    List<GenerationRequest> requests = ContractRequests.mixed(Math.min(6, maxBatchSize()), seed);
    List<String> single = new ArrayList<>();
    for (GenerationRequest r : requests) {
      single.add(run(List.of(r)).get(0).text());
    }
    List<String> reversedBatch = texts(run(reverse(requests)));
    assertEquals(single, texts(run(requests)), "batch results are in request order");
    assertEquals(reverse(single), reversedBatch, "reversed batch gives reversed results");
  }

  /** Several threads calling at once each get their own complete, ordered results. */
  @Property(tries = 2)
  default void concurrentCallersAreServedCorrectly(@ForAll long seed) throws Exception {
    int threads = 4;
    int n = Math.min(4, maxBatchSize());
    List<List<GenerationRequest>> batches = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      batches.add(ContractRequests.mixed(n, seed + 1000L * t));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<GenerationResult>>> futures = new ArrayList<>();
      for (List<GenerationRequest> b : batches) {
        futures.add(pool.submit(() -> run(b)));
      }
      for (int t = 0; t < threads; t++) {
        List<GenerationResult> got = futures.get(t).get(batchTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        assertEquals(n, got.size(), "one result per request under concurrency");
        if (deterministicUnderSeed()) {
          assertEquals(texts(run(batches.get(t))), texts(got), "same results as sequential calls");
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Cancelling a batch completes its future as cancelled and leaves the generator usable. */
  @Example
  default void cancellingABatchLeavesTheGeneratorUsable() throws Exception {
    CompletableFuture<List<GenerationResult>> f =
        generator().generateAsync(ContractRequests.mixed(maxBatchSize(), 7));
    f.cancel(true);
    assertTrue(f.isCancelled() || f.isDone());
    assertEquals(1, run(ContractRequests.mixed(1, 8)).size(), "usable after a cancellation");
  }

  /** Name and locality are reported. */
  @Example
  default void reportsNameAndLocality() {
    assertNotNull(generator().locality(), "locality");
    assertFalse(generator().name() == null || generator().name().isBlank(), "name is not blank");
  }

  private static List<String> texts(List<GenerationResult> results) {
    return results.stream().map(GenerationResult::text).toList();
  }

  private static <T> List<T> reverse(List<T> list) {
    List<T> r = new ArrayList<>(list);
    Collections.reverse(r);
    return r;
  }
}
