package dev.secpe.llm.cache;

import dev.secpe.llm.ForwardingTextEmbedder;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TextEmbedder} decorator that remembers vectors by content hash, so a text that survives
 * an evolution round is not embedded again.
 *
 * <p>The key is the SHA-256 of the embedder's name, its dimension and the UTF-8 text: two
 * embedders never share entries. Vectors live in a bounded in-memory LRU map and, optionally, in
 * an append-only file in a directory (one file per embedder name and dimension), which survives
 * restarts.
 *
 * <p><b>Privacy:</b> texts may be private records. Neither the memory map nor the file holds any
 * text: only the 32-byte hash and the vector. (A hash of a short or guessable text can still be
 * confirmed by someone who guesses the text, and the vector itself carries information about the
 * text; protect the directory like the data.)
 *
 * <p>Within one {@link #embed(List)} call, identical texts are embedded once. Two threads
 * embedding the same new text at the same moment may both send it to the delegate; each text is
 * stored once. Thread-safe when the delegate is. {@link #close()} flushes the file and closes the
 * delegate. The key needs the delegate's {@link TextEmbedder#dimension()}, so a delegate that learns
 * its dimension from a first call (e.g. the OpenAI embedder without a configured dimension) makes
 * that call when the cache first needs it.
 */
public final class CachingEmbedder extends ForwardingTextEmbedder {

  private final int maxEntries;
  private final DiskStore disk;
  private final Map<ContentKey, float[]> memory;
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong diskHits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  private CachingEmbedder(Builder b) {
    super(b.delegate);
    this.maxEntries = b.maxEntries;
    this.memory =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<ContentKey, float[]> eldest) {
            return size() > maxEntries;
          }
        };
    this.disk = b.directory == null ? null
        : new DiskStore(b.directory, b.delegate.name(), b.delegate.dimension());
  }

  /** A builder around {@code delegate}. */
  public static Builder builder(TextEmbedder delegate) {
    return new Builder(delegate);
  }

  /** An in-memory cache of at most {@code maxEntries} vectors. */
  public static CachingEmbedder inMemory(TextEmbedder delegate, int maxEntries) {
    return builder(delegate).maxEntries(maxEntries).build();
  }


  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    int n = texts.size();
    float[][] out = new float[n][];
    String name = delegate().name();
    int dim = delegate().dimension();
    Map<ContentKey, List<Integer>> missing = new LinkedHashMap<>();
    Map<ContentKey, String> missingText = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String text = Objects.requireNonNull(texts.get(i), "texts must not contain null");
      ContentKey key = ContentKey.of(name, dim, text);
      List<Integer> pending = missing.get(key);
      if (pending != null) {
        pending.add(i);
        continue;
      }
      float[] v = lookup(key);
      if (v != null) {
        out[i] = v.clone();
      } else {
        List<Integer> idx = new ArrayList<>(1);
        idx.add(i);
        missing.put(key, idx);
        missingText.put(key, text);
      }
    }
    if (!missing.isEmpty()) {
      List<String> batch = new ArrayList<>(missingText.values());
      float[][] fresh = delegate().embed(batch);
      if (fresh == null || fresh.length != batch.size()) {
        throw ProviderFault.rowCount(name, fresh == null ? 0 : fresh.length, batch.size());
      }
      misses.addAndGet(batch.size());
      int j = 0;
      for (Map.Entry<ContentKey, List<Integer>> e : missing.entrySet()) {
        float[] v = fresh[j++];
        if (v == null) {
          throw ProviderFault.missing(name, j - 1);
        }
        if (v.length != dim) {
          throw ProviderFault.dimension(name, j - 1, v.length, dim);
        }
        float[] stored = v.clone();
        store(e.getKey(), stored);
        for (int i : e.getValue()) {
          out[i] = stored.clone();
        }
      }
    }
    return out;
  }

  private float[] lookup(ContentKey key) {
    float[] v;
    synchronized (memory) {
      v = memory.get(key);
    }
    if (v != null) {
      hits.incrementAndGet();
      return v;
    }
    if (disk != null) {
      v = disk.get(key);
      if (v != null) {
        hits.incrementAndGet();
        diskHits.incrementAndGet();
        synchronized (memory) {
          memory.put(key, v);
        }
        return v;
      }
    }
    return null;
  }

  private void store(ContentKey key, float[] v) {
    synchronized (memory) {
      memory.put(key, v);
    }
    if (disk != null) {
      disk.put(key, v);
    }
  }

  /** Hit and miss counters and sizes. */
  public CacheStats stats() {
    long mem;
    synchronized (memory) {
      mem = memory.size();
    }
    return new CacheStats(hits.get(), diskHits.get(), misses.get(), mem, disk == null ? 0 : disk.size());
  }

  /** Flushes and closes the cache file (if any), then closes the delegate. */
  @Override
  public void close() {
    try {
      if (disk != null) {
        disk.close();
      }
    } finally {
      delegate().close();
    }
  }

  @Override
  public String toString() {
    return "CachingEmbedder{" + delegate().name() + ", maxEntries=" + maxEntries
        + (disk == null ? "" : ", file=" + disk.file()) + "}";
  }

  /** Configures a {@link CachingEmbedder}. */
  public static final class Builder {
    private final TextEmbedder delegate;
    private int maxEntries = 100_000;
    private Path directory;

    private Builder(TextEmbedder delegate) {
      this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The most vectors kept in memory (least recently used evicted first); default 100 000. */
    public Builder maxEntries(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxEntries must be >= 1, got maxEntries=" + value);
      }
      this.maxEntries = value;
      return this;
    }

    /**
     * Also keep vectors in an append-only file in {@code dir} (created if missing). Only hashes
     * and vectors are written, never text.
     */
    public Builder directory(Path dir) {
      this.directory = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /** Builds the cache; opens (and locks) the file when a directory was set. */
    public CachingEmbedder build() {
      return new CachingEmbedder(this);
    }
  }
}
