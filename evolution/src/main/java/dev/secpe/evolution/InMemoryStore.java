package dev.secpe.evolution;

import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.clustering.ClusterAggregator;
import dev.secpe.clustering.Metric;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.secret.Secret;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretIds;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evolution.kernel.InProcessEmbeddings;
import dev.secpe.evolution.kernel.Kernel;
import dev.secpe.llm.TextEmbedder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/** {@link PrivateStore#inMemory}: the records and their embeddings in this JVM. */
final class InMemoryStore implements PrivateStore, InProcessEmbeddings {

  private final PrivateDataset data;
  private int[] groups;
  private EmbeddingMatrix unit;
  /** The last secret scan: a secret-free request naming a record it found a secret in is refused. */
  private @Nullable SecretIndex lastScan;

  InMemoryStore(PrivateDataset data) {
    this.data = Objects.requireNonNull(data, "privateData");
    if (data.size() == 0) {
      throw new IllegalArgumentException("privateData must not be empty, got 0 records");
    }
  }

  @Override
  public int size() {
    return data.size();
  }

  @Override
  public boolean isLabelled() {
    return data.isLabelled();
  }

  @Override
  public String contentHash() {
    return data.contentHash();
  }

  @Override
  public String datasetKey() {
    return data.datasetKey();
  }

  @Override
  public int[] groups(List<Label> labels) {
    int[] out = new int[data.size()];
    for (int i = 0; i < out.length; i++) {
      PrivateRecord r = data.get(i);
      if (r.label().isEmpty()) {
        out[i] = 0;
        continue;
      }
      int g = labels.indexOf(r.label().get());
      if (g < 0) {
        // Name the position, not the label: a label outside the declared set may itself be private.
        throw new IllegalArgumentException(
            "private record at index " + i + " has a label outside the declared label set");
      }
      out[i] = g;
    }
    groups = out;
    return out.clone();
  }

  @Override
  public void embed(TextEmbedder embedder, PrivacyGuard guard) {
    if (unit == null) {
      unit = PrivateTexts.embed(embedder, data, guard).normalizeRows(EmbeddingMatrix.ZeroRowPolicy.REJECT);
    }
  }

  @Override
  public EmbeddingMatrix unit() {
    if (unit == null) {
      throw new IllegalStateException("the private records were not embedded yet");
    }
    return unit;
  }

  @Override
  public int dimension() {
    return unit().dimension();
  }

  @Override
  public long[] nearestCounts(int group, EmbeddingMatrix candidates, float[] centre, int k) {
    return Kernel.nearestCounts(unit(), rowsOf(group), candidates, centre, k);
  }

  @Override
  public ClusterAggregate clusterAggregate(int[] sampled, EmbeddingMatrix publicCentres) {
    ClusterAggregator aggregator = ClusterAggregator.of(Metric.COSINE, publicCentres, 1.0);
    if (sampled.length == 0) {
      return new ClusterAggregate(publicCentres.rows(), publicCentres.dimension());
    }
    return aggregator.aggregate(Kernel.rows(unit(), sampled, null));
  }

  @Override
  public EmbeddingMatrix secretFreeEmbeddings(int[] records) {
    PrivateStore.requireSecretFree(records, data.size(), lastScan);
    return unit().selectRows(records);
  }

  @Override
  public ClusterAggregate secretFreeAggregate(int[] records, EmbeddingMatrix centres) {
    PrivateStore.requireSecretFree(records, data.size(), lastScan);
    return clusterAggregate(records, centres);
  }

  @Override
  public int[] secretFreeNearest(int[] records, EmbeddingMatrix centres) {
    PrivateStore.requireSecretFree(records, data.size(), lastScan);
    return ClusterAggregator.of(Metric.COSINE, centres, 1.0).nearest(Kernel.rows(unit(), records, null));
  }

  @Override
  public ClusterVotes secretFreeVotes(
      int[] records, int[] clusters, EmbeddingMatrix candidates, @Nullable float[] centre) {
    PrivateStore.requireSecretFree(records, data.size(), lastScan);
    if (clusters.length != records.length) {
      throw new IllegalArgumentException(
          "one cluster per record, got " + clusters.length + " clusters for " + records.length + " records");
    }
    if (records.length == 0 || candidates.rows() == 0) {
      return ClusterVotes.none();
    }
    return ClusterVotes.of(
        clusters, Kernel.top1(unit(), records, candidates, Kernel.iota(candidates.rows()), centre), candidates.rows());
  }

  @Override
  public SecretIndex secrets(SecretDetector detector, PrivacyGuard guard) {
    // SecretIndex.scan's result, the records scanned in parallel (detectors and ids are
    // thread-safe) and gathered in record order, so that the index is the same.
    guard.checkSecretDetector(detector.name(), detector.locality());
    SecretIds ids = SecretIds.withKey(data.secretIdKey());
    List<List<Secret>> found = IntStream.range(0, data.size()).parallel()
        .mapToObj(i -> SecretIndex.secretsIn(data.get(i).text(), detector, guard, SecretIndex.Granularity.VALUE, ids))
        .toList();
    lastScan = SecretIndex.of(found);
    return lastScan;
  }

  @Override
  public long[] recordKeys(long key) {
    return PrivateTexts.recordKeys(data, key);
  }

  @Override
  public Optional<PrivateDataset> inMemory() {
    return Optional.of(data);
  }

  private int[] rowsOf(int group) {
    if (groups == null) {
      throw new IllegalStateException("groups(labels) must be called before the aggregates");
    }
    return IntStream.range(0, groups.length).filter(i -> groups[i] == group).toArray();
  }

  @Override
  public String toString() {
    return "PrivateStore.inMemory[" + data.size() + " records]";
  }
}
