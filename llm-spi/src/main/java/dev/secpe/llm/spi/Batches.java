package dev.secpe.llm.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every batching embedder does around its calls, written once: split a request's texts into
 * batches of at most a given size, in order, and join the batches' vectors back into one array in
 * the same order ({@link BlockingTextEmbedder} and the OpenAI embedder use it; so can a provider
 * of one's own).
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
