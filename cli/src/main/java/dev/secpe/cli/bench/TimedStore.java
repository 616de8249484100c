package dev.secpe.cli.bench;

import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evolution.ClusterVotes;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.llm.TextEmbedder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A store that times every call into the store it wraps, by method: where the records live (the
 * executors, for a Spark store) against what the driver does between the calls. For benchmarks.
 */
public final class TimedStore implements PrivateStore {

  private final PrivateStore inner;
  private final Map<String, Long> nanos = new LinkedHashMap<>();
  private final Map<String, Integer> calls = new LinkedHashMap<>();

  /** Times the calls into {@code inner}. */
  public TimedStore(PrivateStore inner) {
    this.inner = inner;
  }

  /** How many times each method was called, in order of first call. */
  public synchronized Map<String, Integer> calls() {
    return new LinkedHashMap<>(calls);
  }

  /** Seconds spent in each method called, in order of first call. */
  public synchronized Map<String, Double> seconds() {
    Map<String, Double> out = new LinkedHashMap<>();
    nanos.forEach((k, v) -> out.put(k, v / 1e9));
    return out;
  }

  private <T> T timed(String call, Supplier<T> body) {
    long t0 = System.nanoTime();
    try {
      return body.get();
    } finally {
      long dt = System.nanoTime() - t0;
      synchronized (this) {
        nanos.merge(call, dt, Long::sum);
        calls.merge(call, 1, Integer::sum);
      }
    }
  }

  @Override
  public int size() {
    return inner.size();
  }

  @Override
  public boolean isLabelled() {
    return inner.isLabelled();
  }

  @Override
  public String contentHash() {
    return timed("content_hash", inner::contentHash);
  }

  @Override
  public String datasetKey() {
    return timed("dataset_key", inner::datasetKey);
  }

  @Override
  public int[] groups(List<Label> labels) {
    return timed("groups", () -> inner.groups(labels));
  }

  @Override
  public void embed(TextEmbedder embedder, PrivacyGuard guard) {
    timed("embed", () -> {
      inner.embed(embedder, guard);
      return null;
    });
  }

  @Override
  public int dimension() {
    return inner.dimension();
  }

  @Override
  public long[] nearestCounts(int group, EmbeddingMatrix candidates, float[] centre, int k) {
    return timed("nearest_counts", () -> inner.nearestCounts(group, candidates, centre, k));
  }

  @Override
  public ClusterAggregate clusterAggregate(int[] sampled, EmbeddingMatrix publicCentres) {
    return timed("cluster_aggregate", () -> inner.clusterAggregate(sampled, publicCentres));
  }

  @Override
  public EmbeddingMatrix secretFreeEmbeddings(int[] records) {
    return timed("secret_free_embeddings", () -> inner.secretFreeEmbeddings(records));
  }

  @Override
  public ClusterAggregate secretFreeAggregate(int[] records, EmbeddingMatrix centres) {
    return timed("secret_free_aggregate", () -> inner.secretFreeAggregate(records, centres));
  }

  @Override
  public int[] secretFreeNearest(int[] records, EmbeddingMatrix centres) {
    return timed("secret_free_nearest", () -> inner.secretFreeNearest(records, centres));
  }

  @Override
  public ClusterVotes secretFreeVotes(
      int[] records, int[] clusters, EmbeddingMatrix candidates, float[] centre) {
    return timed("secret_free_votes", () -> inner.secretFreeVotes(records, clusters, candidates, centre));
  }

  @Override
  public SecretIndex secrets(SecretDetector detector, PrivacyGuard guard) {
    return timed("secrets", () -> inner.secrets(detector, guard));
  }

  @Override
  public long[] recordKeys(long key) {
    return timed("record_keys", () -> inner.recordKeys(key));
  }

  @Override
  public Optional<PrivateDataset> inMemory() {
    return inner.inMemory();
  }

  @Override
  public void close() {
    inner.close();
  }

  @Override
  public String toString() {
    return "TimedStore[" + inner + "]";
  }
}
