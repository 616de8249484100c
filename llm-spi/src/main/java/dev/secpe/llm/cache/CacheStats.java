package dev.secpe.llm.cache;

/**
 * Counters of a {@link CachingEmbedder} since it was built.
 *
 * @param hits texts answered from the cache (memory or disk)
 * @param diskHits the part of {@code hits} read from disk
 * @param misses texts sent to the delegate embedder (each distinct text of a batch counts once)
 * @param memoryEntries vectors held in memory now
 * @param diskEntries vectors stored on disk now (0 without a directory)
 */
public record CacheStats(long hits, long diskHits, long misses, long memoryEntries, long diskEntries) {

  /** Hits over lookups, or 0 before the first lookup. */
  public double hitRate() {
    long total = hits + misses;
    return total == 0 ? 0 : (double) hits / total;
  }
}
