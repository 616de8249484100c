package dev.secpe.llm.embedded;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An immutable interpolated Kneser–Ney language model (Chen &amp; Goodman 1998, one absolute
 * discount per order, {@code D = n1 / (n1 + 2 n2)}), derived from a table of highest-order counts.
 * The highest order uses raw counts; every lower order uses continuation counts {@code N1+(. g)};
 * the unigram level is the continuation distribution without discount:
 *
 * <pre>
 *   P_k(w | h) = max(c_k(h w) - D_k, 0) / c_k(h) + D_k N1+(h .) / c_k(h) * P_{k-1}(w | h')
 *   P_1(w)     = N1+(. w) / N1+(. .)
 * </pre>
 *
 * with {@code P_k(w | h) = P_{k-1}(w | h')} when the context {@code h} was never seen. Thread-safe.
 */
final class KneserNeyModel {
  private static final int B = Vocabulary.BITS;

  final int order;
  final int vocabularySize;
  /** grams[k]: k-gram counts (raw for k = order, continuation counts below); k >= 1. */
  private final LongIntMap[] grams;
  /** ctx[k]: (k-1)-gram context key to its index in the level-k arrays; k >= 2. */
  private final LongIntMap[] ctx;
  private final int[][] ctxTotal;
  private final int[][] ctxDistinct;
  private final int[][] ctxOffset;
  private final int[][] ctxLength;
  /** Continuations of each context, by decreasing count. */
  private final int[][] contIds;
  private final int[][] contCounts;
  private final double[] discount;
  private final double[] unigram;
  private final double[] unigramCdf;

  KneserNeyModel(NgramCounts counts, int vocabularySize) {
    this.order = counts.order;
    this.vocabularySize = vocabularySize;
    int n = order;
    grams = new LongIntMap[n + 1];
    ctx = new LongIntMap[n + 1];
    ctxTotal = new int[n + 1][];
    ctxDistinct = new int[n + 1][];
    ctxOffset = new int[n + 1][];
    ctxLength = new int[n + 1][];
    contIds = new int[n + 1][];
    contCounts = new int[n + 1][];
    discount = new double[n + 1];
    grams[n] = new LongIntMap(counts.counts.size());
    counts.counts.forEach((k, v) -> {
      if (v > 0) {
        grams[n].add(k, v);
      }
    });
    for (int k = n - 1; k >= 1; k--) {
      LongIntMap lower = new LongIntMap(grams[k + 1].size());
      long suffixMask = (1L << (B * k)) - 1;
      grams[k + 1].forEach((key, v) -> lower.add(key & suffixMask, 1));
      grams[k] = lower;
    }
    for (int k = 2; k <= n; k++) {
      buildLevel(k);
    }
    unigram = new double[vocabularySize];
    long total = 0;
    for (int w = 0; w < vocabularySize; w++) {
      int c = grams[1].get(w);
      unigram[w] = c;
      total += c;
    }
    unigramCdf = new double[vocabularySize];
    double acc = 0;
    for (int w = 0; w < vocabularySize; w++) {
      unigram[w] = total == 0 ? 0 : unigram[w] / total;
      acc += unigram[w];
      unigramCdf[w] = acc;
    }
  }

  private void buildLevel(int k) {
    long[] keys = grams[k].sortedKeys();
    int[] n1n2 = new int[2];
    // Sorted keys group by context: the context is the high bits.
    int contexts = 0;
    long previous = -1;
    for (long key : keys) {
      long c = key >>> B;
      if (c != previous) {
        contexts++;
        previous = c;
      }
    }
    ctx[k] = new LongIntMap(contexts);
    ctxTotal[k] = new int[contexts];
    ctxDistinct[k] = new int[contexts];
    ctxOffset[k] = new int[contexts];
    ctxLength[k] = new int[contexts];
    contIds[k] = new int[keys.length];
    contCounts[k] = new int[keys.length];
    int ci = -1;
    previous = -1;
    for (int i = 0; i < keys.length; i++) {
      long key = keys[i];
      long c = key >>> B;
      int count = grams[k].get(key);
      if (c != previous) {
        ci++;
        previous = c;
        ctx[k].put(c, ci);
        ctxOffset[k][ci] = i;
      }
      contIds[k][i] = (int) (key & ((1L << B) - 1));
      contCounts[k][i] = count;
      ctxLength[k][ci]++;
      ctxDistinct[k][ci]++;
      ctxTotal[k][ci] += count;
      if (count == 1) {
        n1n2[0]++;
      } else if (count == 2) {
        n1n2[1]++;
      }
    }
    for (int j = 0; j < contexts; j++) {
      sortByCountDescending(contIds[k], contCounts[k], ctxOffset[k][j], ctxLength[k][j]);
    }
    double d = n1n2[0] + 2.0 * n1n2[1] == 0 ? 0.5 : n1n2[0] / (n1n2[0] + 2.0 * n1n2[1]);
    discount[k] = Math.min(0.9, Math.max(0.1, d));
  }

  private static void sortByCountDescending(int[] ids, int[] counts, int from, int len) {
    // Insertion sort for short runs, otherwise a boxed sort (build time only).
    if (len < 32) {
      for (int i = from + 1; i < from + len; i++) {
        int id = ids[i];
        int c = counts[i];
        int j = i - 1;
        while (j >= from && (counts[j] < c || (counts[j] == c && ids[j] > id))) {
          ids[j + 1] = ids[j];
          counts[j + 1] = counts[j];
          j--;
        }
        ids[j + 1] = id;
        counts[j + 1] = c;
      }
      return;
    }
    long[] packed = new long[len];
    for (int i = 0; i < len; i++) {
      // Larger count first, then smaller id: sort ascending on (-count, id).
      packed[i] = ((long) (Integer.MAX_VALUE - counts[from + i]) << 32) | ids[from + i];
    }
    Arrays.sort(packed);
    for (int i = 0; i < len; i++) {
      ids[from + i] = (int) (packed[i] & 0xFFFFFFFFL);
      counts[from + i] = Integer.MAX_VALUE - (int) (packed[i] >>> 32);
    }
  }

  /**
   * The per-level context of the next token, with per-thread scratch: {@link #set} scatters the
   * counts of each level's most frequent continuations into word-indexed arrays so that {@link
   * #probability} needs a hash lookup only for a word outside that prefix of a long list. Reused by
   * one thread at a time (see {@link #context()}).
   */
  final class Context {
    final int[] index = new int[order + 1];
    final long[] prefix = new long[order + 1];
    private final boolean[] complete = new boolean[order + 1];
    private final int[][] stampAt = new int[order + 1][];
    private final int[][] countAt = new int[order + 1][];
    private int stamp;

    Context() {
      for (int k = 2; k <= order; k++) {
        stampAt[k] = new int[vocabularySize];
        countAt[k] = new int[vocabularySize];
      }
    }

    /**
     * Positions the context after the last {@code order - 1} ids (start padding included) and
     * scatters up to {@code scatter} continuation counts per level.
     */
    void set(int[] history, int length, int scatter) {
      if (++stamp == Integer.MAX_VALUE) {
        for (int k = 2; k <= order; k++) {
          Arrays.fill(stampAt[k], 0);
        }
        stamp = 1;
      }
      long key = 0;
      for (int k = 2; k <= order; k++) {
        int pos = length - (k - 1);
        int id = pos >= 0 ? history[pos] : Vocabulary.BOS;
        key = key | ((long) id << (B * (k - 2)));
        int idx = ctx[k].indexOf(key);
        int ci = idx < 0 ? -1 : ctx[k].valueAt(idx);
        index[k] = ci;
        prefix[k] = key << B;
        if (ci >= 0) {
          int off = ctxOffset[k][ci];
          int len = ctxLength[k][ci];
          int n = Math.min(scatter, len);
          complete[k] = n == len;
          int[] st = stampAt[k];
          int[] ct = countAt[k];
          for (int i = 0; i < n; i++) {
            int w = contIds[k][off + i];
            st[w] = stamp;
            ct[w] = contCounts[k][off + i];
          }
        }
      }
    }

    /** P(w | context). */
    double probability(int w) {
      double p = unigram[w];
      for (int k = 2; k <= order; k++) {
        int ci = index[k];
        if (ci < 0) {
          continue;
        }
        int c;
        if (stampAt[k][w] == stamp) {
          c = countAt[k][w];
        } else if (complete[k]) {
          c = 0;
        } else {
          c = grams[k].get(prefix[k] | w);
        }
        double d = discount[k];
        p = (Math.max(c - d, 0) + d * ctxDistinct[k][ci] * p) / ctxTotal[k][ci];
      }
      return p;
    }

    /** Whether {@code w} followed the last word of this context in training (bigram seen). */
    boolean seenAfter(int w) {
      int ci = index[2];
      if (ci < 0) {
        return false;
      }
      if (stampAt[2][w] == stamp) {
        return countAt[2][w] > 0;
      }
      return !complete[2] && grams[2].get(prefix[2] | w) > 0;
    }

    /** Calls {@code sink} with up to {@code perLevel} most frequent continuations per level. */
    void candidates(int perLevel, IntSink sink) {
      for (int k = order; k >= 2; k--) {
        int ci = index[k];
        if (ci < 0) {
          continue;
        }
        int off = ctxOffset[k][ci];
        int len = Math.min(perLevel, ctxLength[k][ci]);
        for (int i = 0; i < len; i++) {
          sink.accept(contIds[k][off + i]);
        }
      }
    }

    /** Draws one token from the exact (untempered) distribution P(. | context). */
    int sample(SplittableRandom rng) {
      for (int k = order; k >= 2; k--) {
        int ci = index[k];
        if (ci < 0) {
          continue;
        }
        double d = discount[k];
        int total = ctxTotal[k][ci];
        double explicit = total - d * ctxDistinct[k][ci];
        double u = rng.nextDouble() * total;
        if (u < explicit) {
          int off = ctxOffset[k][ci];
          int len = ctxLength[k][ci];
          double acc = 0;
          for (int i = 0; i < len; i++) {
            acc += contCounts[k][off + i] - d;
            if (u < acc) {
              return contIds[k][off + i];
            }
          }
          return contIds[k][off + len - 1];
        }
      }
      double u = rng.nextDouble() * unigramCdf[vocabularySize - 1];
      int lo = 0;
      int hi = vocabularySize - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (unigramCdf[mid] > u) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
  }

  private final ThreadLocal<Context> contexts = ThreadLocal.withInitial(Context::new);

  /** This thread's context object (reused: one sampler per thread at a time). */
  Context context() {
    return contexts.get();
  }

  /** The most frequent continuations of a single word (bigram level), up to {@code max}. */
  int[] followers(int w, int max) {
    if (order < 2) {
      return new int[0];
    }
    int idx = ctx[2].indexOf(w);
    if (idx < 0) {
      return new int[0];
    }
    int ci = ctx[2].valueAt(idx);
    int len = Math.min(max, ctxLength[2][ci]);
    int[] out = new int[len];
    System.arraycopy(contIds[2], ctxOffset[2][ci], out, 0, len);
    return out;
  }

  /** Whether the word occurs in this model's training text (as a continuation). */
  boolean knows(int w) {
    return unigram[w] > 0;
  }

  /** An int consumer. */
  interface IntSink {
    void accept(int value);
  }
}
