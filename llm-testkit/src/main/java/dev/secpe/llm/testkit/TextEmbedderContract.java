package dev.secpe.llm.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

/**
 * The contract every {@link TextEmbedder} meets, as jqwik properties. A provider author
 * implements this interface in a test class and supplies the instance:
 *
 * <pre>{@code
 * class MyEmbedderContractTest implements TextEmbedderContract {
 *   private final TextEmbedder e = new MyEmbedder(...);
 *   public TextEmbedder embedder() { return e; }
 * }
 * }</pre>
 *
 * <p>Checked: one vector per text, every vector of {@link TextEmbedder#dimension()} finite
 * components, unit norm when {@link TextEmbedder#normalized()} is claimed, determinism (when
 * claimed, the default), row order (a batch equals one-by-one calls, within {@link
 * #tolerance()}) and correct results under concurrent callers.
 */
public interface TextEmbedderContract {

  /** The embedder under test; may return the same instance every time. */
  TextEmbedder embedder();

  /** Whether the same text always gives the same vector (within {@link #tolerance()}); default true. */
  default boolean deterministic() {
    return true;
  }

  /**
   * Largest absolute difference allowed between two vectors of one text (batching can change
   * floating-point summation order); default 1e-4.
   */
  default double tolerance() {
    return 1e-4;
  }

  /** Largest allowed | ||v|| - 1 | for a normalised embedder; default 1e-3. */
  default double normTolerance() {
    return 1e-3;
  }

  /** One vector of the right dimension per text, all finite, unit norm when claimed. */
  @Property(tries = 10)
  default void oneVectorPerTextOfConstantDimension(
      @ForAll @Size(max = 8) List<@AlphaChars @Chars({' ', '.'}) @StringLength(max = 60) String> texts) {
    TextEmbedder e = embedder();
    int dim = e.dimension();
    assertTrue(dim >= 1, "dimension is positive");
    float[][] v = e.embed(texts);
    assertEquals(texts.size(), v.length, "one vector per text");
    for (float[] row : v) {
      assertNotNull(row);
      assertEquals(dim, row.length, "every vector has the stated dimension");
      double sq = 0;
      for (float x : row) {
        assertTrue(Float.isFinite(x), "components are finite");
        sq += (double) x * x;
      }
      if (e.normalized()) {
        assertTrue(Math.abs(Math.sqrt(sq) - 1) <= normTolerance(), "unit norm, got " + Math.sqrt(sq));
      }
    }
    assertEquals(dim, e.dimension(), "dimension does not change");
  }

  /** The same texts give the same vectors (only when claimed), in input order. */
  @Property(tries = 5)
  default void batchEqualsOneByOne(
      @ForAll @Size(min = 1, max = 6) List<@AlphaChars @Chars({' '}) @StringLength(max = 40) String> texts) {
    if (!deterministic()) {
      return;
    }
    TextEmbedder e = embedder();
    float[][] batch = e.embed(texts);
    for (int i = 0; i < texts.size(); i++) {
      float[] single = e.embed(List.of(texts.get(i)))[0];
      assertClose(single, batch[i], "row " + i + " of the batch is the vector of text " + i);
    }
  }

  /** Several threads embedding at once get the same vectors as one thread. */
  @Property(tries = 2)
  default void concurrentCallersAreServedCorrectly(
      @ForAll @Size(min = 1, max = 5) List<@AlphaChars @StringLength(max = 30) String> texts)
      throws Exception {
    TextEmbedder e = embedder();
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<float[][]>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> e.embed(texts)));
      }
      float[][] reference = deterministic() ? e.embed(texts) : null;
      for (Future<float[][]> f : futures) {
        float[][] got = f.get(60, TimeUnit.SECONDS);
        assertEquals(texts.size(), got.length, "one vector per text under concurrency");
        for (int i = 0; i < got.length; i++) {
          assertEquals(e.dimension(), got[i].length);
          if (reference != null) {
            assertClose(reference[i], got[i], "same vector under concurrency");
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The empty batch gives no vectors. */
  @Example
  default void emptyBatchGivesNoVectors() {
    assertEquals(0, embedder().embed(List.of()).length);
  }

  /** Name and locality are reported. */
  @Example
  default void reportsNameAndLocality() {
    assertNotNull(embedder().locality(), "locality");
    assertFalse(embedder().name() == null || embedder().name().isBlank(), "name is not blank");
  }

  private void assertClose(float[] expected, float[] actual, String what) {
    assertEquals(expected.length, actual.length, what + ": length");
    for (int j = 0; j < expected.length; j++) {
      assertTrue(Math.abs(expected[j] - actual[j]) <= tolerance(),
          what + ": component " + j + " differs: " + expected[j] + " vs " + actual[j]);
    }
  }
}
