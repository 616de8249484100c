package dev.secpe.evolution;

import dev.secpe.evolution.kernel.Kernel;
import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.llm.TextEmbedder;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where the private records of a run live, and the only way the engine reaches them: every method
 * asks the store for exact, noise-free aggregates (label groups, nearest-neighbour vote counts,
 * cluster counts and sums), and the engine adds the noise and charges the ledger itself. The
 * in-memory store ({@link #inMemory}, what {@code privateData(...)} uses) computes them on this
 * machine; {@code secpe-spark}'s store computes them on a cluster's executors. Both must return
 * the same values for the same data, so a run's releases do not depend on where its data lives.
 *
 * <p>What an implementation may hand back to the engine is fixed by this interface: per-record
 * metadata (label group, keyed secret ids, keyed record hashes) and aggregates (integer counts,
 * exact sums). Never text. Embeddings in one case only: SecPE's dataset split ({@code
 * secretFreeAsPublic}), under whose guarantee the records in which the detector found no secret are
 * public data, seeds its k-means with a sample of those records ({@link #secretFreeEmbeddings});
 * the embeddings of a record that holds a secret never leave a store. The split's other answers
 * about secret-free records ({@link #secretFreeAggregate}, {@link #secretFreeNearest}, {@link
 * #secretFreeVotes}) are exact and
 * get no noise, for the same reason; everything about the records that hold a secret is an
 * aggregate of the records the engine sampled, and the engine adds the noise. A store that has
 * scanned for secrets ({@link #secrets}) refuses a secret-free request that names a record its
 * last scan found a secret in ({@link #requireSecretFree}). It draws no random numbers: the sampling
 * masks, and which secret-free records seed the k-means, come from the engine.
 *
 * <p>Methods are called in this order within a run: {@link #groups}, {@link #embed}, then the
 * aggregates any number of times. Implementations that hold resources release them in {@link
 * #close()}; a run does not close the store it was given.
 */
public interface PrivateStore extends AutoCloseable {

  /**
   * The private records of {@code dataset}, held in this JVM.
   *
   * @throws IllegalArgumentException if the dataset is empty
   */
  static PrivateStore inMemory(PrivateDataset dataset) {
    return new InMemoryStore(dataset);
  }

  /**
   * The number of records, n. Treated as public, as throughout this library: the default delta is
   * derived from it and the report states it.
   */
  int size();

  /** Whether the records carry labels (then every record does). */
  boolean isLabelled();

  /**
   * A digest of the records in order (text and label), to match a checkpoint to its input. Not
   * readable text; stores of different kinds may give different digests for the same records.
   */
  String contentHash();

  /**
   * The key of these records in a {@link PrivacyJournal}: the same records must give the same key
   * in every run, whatever their order, so that one dataset has one budget. The in-memory store
   * gives {@link PrivateDataset#datasetKey()} (a digest of the multiset of texts); the default is
   * {@link #contentHash()}, which a store overrides where it can give an order-free key.
   */
  default String datasetKey() {
    return contentHash();
  }

  /**
   * The label group of every record: the index of its label in {@code labels} (0 for every record
   * when the data is unlabelled and {@code labels} is empty).
   *
   * @throws IllegalArgumentException if a record's label is not in {@code labels}; the message
   *     names the record's position, never the label (it may itself be private)
   */
  int[] groups(List<Label> labels);

  /**
   * Embeds every record once, through {@code guard}, and keeps the unit-normalised rows for the
   * aggregates below. {@code embedder} is the run's embedder; a store that embeds elsewhere must
   * embed with the same model (same name and dimension) and refuse otherwise.
   *
   * @throws IllegalStateException if the embedder is remote and the guard does not allow it, or an
   *     embedding has a wrong shape, a non-finite value or is zero
   */
  void embed(TextEmbedder embedder, PrivacyGuard guard);

  /** The dimension of the embeddings ({@link #embed} first). */
  int dimension();

  /**
   * Aug-PE's vote, before noise: every record of {@code group} votes for its {@code min(k, rows)}
   * nearest rows of {@code candidates} (unit rows; cosine after both sides are centred on {@code
   * centre}, plain cosine when it is null, with the kernel's exact tie rule); returns how many
   * votes each candidate row got.
   */
  long[] nearestCounts(int group, EmbeddingMatrix candidates, float[] centre, int k);

  /**
   * The vote counts of {@link #nearestCounts} for the unit rows {@code records} (one partition of
   * a group's records, or all of them): the one kernel every store counts with, so that counts
   * summed over partitions equal the counts of the whole.
   */
  static long[] countNearest(EmbeddingMatrix records, EmbeddingMatrix candidates, float[] centre, int k) {
    return Kernel.nearestCounts(records, Kernel.iota(records.rows()), candidates, centre, k);
  }

  /**
   * SecPE's secret-clustering aggregate, before noise: {@link
   * dev.secpe.clustering.ClusterAggregator#aggregate} under cosine of the records {@code sampled}
   * (ascending record indices, drawn by the engine) against {@code publicCentres}.
   */
  ClusterAggregate clusterAggregate(int[] sampled, EmbeddingMatrix publicCentres);

  /**
   * The unit embeddings of {@code records} (ascending record indices), in that order. Only SecPE's
   * dataset split asks, for a sample of the records in which the detector found no secret (public
   * data under its guarantee) drawn by the engine to seed its k-means; it never names a record that
   * holds a secret, and a store refuses one its last scan found a secret in.
   *
   * @throws IllegalArgumentException if the indices are not ascending record indices, or one holds a
   *     secret found by this store's last {@link #secrets} scan; the message names positions only
   */
  EmbeddingMatrix secretFreeEmbeddings(int[] records);

  /**
   * One Lloyd step of the split's k-means over records that hold no secret, exact and without noise
   * (public data under the split's guarantee): {@link
   * dev.secpe.clustering.ClusterAggregator#aggregate} under cosine of {@code records} (ascending
   * record indices) against {@code centres}, so that the aggregates of a store's partitions merge
   * into exactly the aggregate of the whole.
   *
   * @throws IllegalArgumentException as {@link #secretFreeEmbeddings}
   */
  ClusterAggregate secretFreeAggregate(int[] records, EmbeddingMatrix centres);

  /**
   * The cluster of each of {@code records} (ascending record indices) that hold no secret, in that
   * order: its nearest row of {@code centres}, as {@link #secretFreeAggregate} assigns it ({@link
   * dev.secpe.clustering.ClusterAggregator#nearest} under cosine). Per-record metadata of public
   * data under the split; SecPE's {@code secretFreeVotes} asks once, after its k-means.
   *
   * @throws IllegalArgumentException as {@link #secretFreeEmbeddings}
   */
  int[] secretFreeNearest(int[] records, EmbeddingMatrix centres);

  /**
   * The exact votes of records that hold no secret, for SecPE's {@code secretFreeVotes}: each of
   * {@code records} (ascending record indices) votes for its nearest row of {@code candidates} (unit
   * rows; as {@link #nearestCounts} with k = 1: cosine after both sides are centred on {@code
   * centre}, plain cosine when it is null), counted under its cluster {@code clusters[i]} (from
   * {@link #secretFreeNearest}); returns how many records of each cluster voted for each candidate
   * ({@link #countClusterVotes} per partition, merged).
   *
   * @throws IllegalArgumentException as {@link #secretFreeEmbeddings}, or if {@code clusters} has
   *     another length than {@code records} or a negative entry
   */
  ClusterVotes secretFreeVotes(
      int[] records, int[] clusters, EmbeddingMatrix candidates, @Nullable float[] centre);

  /**
   * The votes of {@link #secretFreeVotes} for the unit rows {@code records} (one partition of the
   * records asked for, or all of them) of clusters {@code clusters}: the one kernel every store
   * counts with, so that votes merged over partitions equal the votes of the whole.
   */
  static ClusterVotes countClusterVotes(
      EmbeddingMatrix records, int[] clusters, EmbeddingMatrix candidates, @Nullable float[] centre) {
    int[] all = Kernel.iota(records.rows());
    return ClusterVotes.of(clusters, Kernel.top1(records, all, candidates, Kernel.iota(candidates.rows()), centre),
        candidates.rows());
  }

  /**
   * Refuses a secret-free request ({@link #secretFreeEmbeddings}, {@link #secretFreeAggregate},
   * {@link #secretFreeNearest}, {@link #secretFreeVotes}) whose {@code records} are not ascending indices below {@code size}, or
   * name a record in which {@code lastScan}, the store's last {@link #secrets} scan (null if it made
   * none: a non-private run, where every record is public data), found a secret. The message names
   * positions, never a record's content.
   *
   * @throws IllegalArgumentException as described
   */
  static void requireSecretFree(int[] records, int size, @Nullable SecretIndex lastScan) {
    for (int i = 0; i < records.length; i++) {
      int r = records[i];
      if (r < 0 || r >= size || (i > 0 && r <= records[i - 1])) {
        throw new IllegalArgumentException(
            "records must be ascending indices below " + size + ", got " + r + " at position " + i);
      }
      if (lastScan != null && lastScan.secretsOf(r).length > 0) {
        throw new IllegalArgumentException(
            "private record at index " + r + " holds a detected secret: only records that hold none may be"
                + " used without noise");
      }
    }
  }

  /**
   * Which secrets each record holds, found by {@code detector} through {@code guard}, with keyed
   * ids (the engine never sees a secret's value). The key should be derived from the records
   * ({@link dev.secpe.core.DatasetKey.Keys#secretIdKey}), so that the same records and detector give the
   * same ids, and {@link SecretIndex#digest()} the same name, in every run: the privacy journal
   * composes SecPE runs only where those names agree. A store that keys its ids at random keeps
   * its runs apart (sound, but each run's guarantee then stands alone).
   */
  SecretIndex secrets(SecretDetector detector, PrivacyGuard guard);

  /**
   * {@link dev.secpe.core.PrivateTexts#recordKeys}: a keyed hash of each record's text and label,
   * in record order.
   */
  long[] recordKeys(long key);

  /**
   * The records themselves when they are held in this JVM; methods that need the text in
   * process (DPGA's word counts, CTCL's fine-tuning) run only on such a store.
   */
  Optional<PrivateDataset> inMemory();

  /** Releases what the store holds for the run (embeddings, executors' caches). */
  @Override
  default void close() {}
}
