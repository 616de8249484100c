package dev.secpe.core.report;

/**
 * Where a run's embedding time went, so users see what the embedder costs and what the cache
 * saves. Public facts only: the private records are counted as sent once each (their number is in
 * the report anyway); cache figures cover the synthetic candidates only, since cache hits among
 * private texts would count duplicate private records.
 *
 * @param texts texts sent to the embedder: every private record once, plus each candidate the
 *     cache did not hold
 * @param seconds time spent embedding (private records and candidates)
 * @param candidateLookups candidate texts embedded over all rounds (survivors again every round)
 * @param candidateHits of those, answered from the cache instead of the embedder
 */
public record EmbeddingStats(long texts, double seconds, long candidateLookups, long candidateHits) {

  /** Validates. */
  public EmbeddingStats {
    if (texts < 0 || candidateLookups < 0 || candidateHits < 0 || candidateHits > candidateLookups) {
      throw new IllegalArgumentException(
          "counts must satisfy 0 <= candidateHits <= candidateLookups and texts >= 0, got texts=" + texts
              + " candidateLookups=" + candidateLookups + " candidateHits=" + candidateHits);
    }
    if (!(seconds >= 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException("seconds must be finite and >= 0, got seconds=" + seconds);
    }
  }

  /** Texts sent to the embedder per second of embedding (0 when no time was measured). */
  public double textsPerSecond() {
    return seconds > 0 ? texts / seconds : 0;
  }

  /** The share of candidate lookups the cache answered (0 before any lookup). */
  public double candidateHitRate() {
    return candidateLookups == 0 ? 0 : (double) candidateHits / candidateLookups;
  }
}
