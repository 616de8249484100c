package dev.secpe.spark;

import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.clustering.ClusterAggregator;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.DatasetKey;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PrivateText;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.secret.Secret;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretIds;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evolution.ClusterVotes;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.llm.TextEmbedder;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * A {@link PrivateStore} whose records stay on Spark executors. Give it to {@code
 * SecPE.builder().privateStore(store)} or {@code AugPE.builder().privateStore(store)}; the run is
 * otherwise the same, and for the same seeded plan it releases the same values as {@link
 * PrivateStore#inMemory} (when the embedder's vector for a text does not depend on the other texts
 * of its batch).
 *
 * <p><b>What runs where.</b> Executors embed (one embedder per executor JVM, from the {@link
 * EmbedderFactory}), detect secrets, count votes against broadcast candidates and sum clipped
 * vectors per public centre for the records the driver sampled; for SecPE's dataset split they
 * also run the k-means steps of the secret-free records (counts and sums per broadcast centre) and
 * count those records' votes per (cluster, candidate). The driver keeps the ledger, every noise
 * draw, every sampling mask and the k-means' seeding sample (broadcast as bit sets of record
 * indices); executors draw no random numbers. Counts are integers and sums {@link
 * dev.secpe.clustering.ExactSums}, so released values do not depend on the partitioning.
 *
 * <p><b>What reaches the driver.</b> Aggregates, and per-record metadata the run needs: each
 * record's label group, the keyed ids of the secrets it holds (for SECRETNOISE), its keyed hash
 * (for a secret cap). Never text: nothing here calls {@code collect}, {@code take} or {@code show}
 * on it, and it is never cached. Embeddings in one case only, {@link #secretFreeEmbeddings}: the
 * split's seeding sample of records that hold no secret (public data under the split), refused for
 * any record the last {@link #secrets} scan found a secret in. Only embeddings are cached; no
 * accumulators (a named accumulator writes per-task values into the event log); exceptions raised
 * on executors carry positions and counts, never text (embedder and detector failures lose their
 * message, as in {@link PrivateTexts}).
 *
 * <p><b>Record order.</b> Record i is the i-th row of the RDD given ({@code zipWithIndex}), so the
 * RDD must yield its rows in the same order each time it is computed (a file, or a parallelised
 * list, does; a shuffle without a sort does not). The input is re-read for each pass over the text
 * (groups, embedding, secrets, hashes) rather than cached.
 *
 * <p>Runs SecPE (with or without the dataset split and its secret-free votes) and Aug-PE; DPGA and
 * CTCL need their records in process and refuse this store.
 * Provider timeouts and retries of the run apply to the driver's embedder; on executors, Spark's
 * task retries apply. {@link #close()} releases the cached embeddings and broadcasts; executors'
 * embedders live as long as their JVM.
 */
public final class SparkPrivateStore implements PrivateStore {

  private static final int BATCH = PrivateTexts.DEFAULT_BATCH_SIZE;

  /** Executors' embedders: one per JVM and store (keyed by the store's id). */
  private static final ConcurrentHashMap<String, TextEmbedder> EMBEDDERS = new ConcurrentHashMap<>();

  private final JavaSparkContext sc;
  private final JavaPairRDD<Long, PrivateRow> indexed;
  private final EmbedderFactory factory;
  private final StorageLevel storageLevel;
  private final String id = UUID.randomUUID().toString();
  private final int size;
  private final boolean labelled;
  private final List<Broadcast<?>> broadcasts = new ArrayList<>();
  private List<String> labels;
  private JavaRDD<EmbeddedRow> embedded;
  private int dimension = -1;
  /** The last secret scan: a secret-free request naming a record it found a secret in is refused. */
  private SecretIndex lastScan;

  private SparkPrivateStore(Builder b) {
    this.sc = JavaSparkContext.fromSparkContext(b.rows.context());
    this.indexed = b.rows.zipWithIndex().mapToPair(t -> new Tuple2<>(t._2(), t._1()));
    this.factory = b.factory;
    this.storageLevel = b.storageLevel;
    // One pass: the number of records and of labelled ones (public: n; and whether labelled).
    long[] counts = indexed.values()
        .mapPartitions(it -> {
          long n = 0;
          long withLabel = 0;
          while (it.hasNext()) {
            n++;
            if (it.next().label().isPresent()) {
              withLabel++;
            }
          }
          return List.of(new long[] {n, withLabel}).iterator();
        })
        .fold(new long[2], (a, c) -> new long[] {a[0] + c[0], a[1] + c[1]});
    if (counts[0] == 0) {
      throw new IllegalArgumentException("the private RDD must not be empty, got 0 records");
    }
    if (counts[0] > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("at most 2^31 - 9 private records per store, got " + counts[0]);
    }
    if (counts[1] != 0 && counts[1] != counts[0]) {
      throw new IllegalArgumentException(
          "private records must be all labelled or all unlabelled, got " + counts[1] + " labelled of " + counts[0]);
    }
    this.size = (int) counts[0];
    this.labelled = counts[1] > 0;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isLabelled() {
    return labelled;
  }

  @Override
  public String contentHash() {
    // Per record: SHA-256 of (index, text, label); summed mod 2^64 (order-free merge, while the
    // index keeps the digest order-sensitive). Differs from the in-memory store's digest.
    long[] sum = indexed
        .mapPartitions(it -> {
          MessageDigest md = sha256();
          long s = 0;
          while (it.hasNext()) {
            Tuple2<Long, PrivateRow> t = it.next();
            md.reset();
            md.update(ByteBuffer.allocate(8).putLong(t._1()).array());
            md.update(t._2().text().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(t._2().label().orElse("").getBytes(StandardCharsets.UTF_8));
            s += ByteBuffer.wrap(md.digest()).getLong();
          }
          return List.of(new long[] {s}).iterator();
        })
        .fold(new long[1], (a, c) -> new long[] {a[0] + c[0]});
    return "spark:" + size + ":" + Long.toHexString(sum[0]);
  }

  /**
   * The in-memory store's key for the same records ({@link DatasetKey}), so that a
   * dataset read through Spark and the same records read from a file share one privacy journal and
   * one budget: the texts' digests are sorted on the cluster and streamed to the driver in order,
   * one partition at a time. Computed once.
   */
  @Override
  public String datasetKey() {
    return keys().datasetKey();
  }

  /**
   * Both of {@link DatasetKey}'s keys, from one sort of the texts' digests on the cluster, streamed
   * to the driver in order (the secret-id key keys {@link #secrets}). Computed once.
   */
  private DatasetKey.Keys keys() {
    DatasetKey.Keys k = keys;
    if (k == null) {
      Iterator<String> sorted = indexed
          .map(t -> DatasetKey.textDigestHex(t._2().text()))
          .sortBy(h -> h, true, Math.max(1, indexed.getNumPartitions()))
          .toLocalIterator();
      HexFormat hex = HexFormat.of();
      k = DatasetKey.keysOfSorted(size, new Iterator<byte[]>() {
        @Override
        public boolean hasNext() {
          return sorted.hasNext();
        }

        @Override
        public byte[] next() {
          return hex.parseHex(sorted.next());
        }
      });
      keys = k;
    }
    return k;
  }

  private volatile DatasetKey.Keys keys;

  @Override
  public int[] groups(List<Label> labels) {
    this.labels = labels.stream().map(Label::name).toList();
    Broadcast<List<String>> names = broadcast(new ArrayList<>(this.labels));
    List<Tuple2<Long, Integer>> pairs = indexed
        .mapToPair(t -> new Tuple2<>(t._1(), groupOf(names.value(), t._1(), t._2())))
        .collect();
    int[] out = new int[size];
    for (Tuple2<Long, Integer> p : pairs) {
      out[Math.toIntExact(p._1())] = p._2();
    }
    return out;
  }

  /** The group of a row: its label's index, 0 when unlabelled; an unknown label names the index only. */
  private static int groupOf(List<String> labels, long index, PrivateRow row) {
    if (row.label().isEmpty()) {
      return 0;
    }
    int g = labels.indexOf(row.label().get());
    if (g < 0) {
      throw new IllegalArgumentException(
          "private record at index " + index + " has a label outside the declared label set");
    }
    return g;
  }

  @Override
  public void embed(TextEmbedder embedder, PrivacyGuard guard) {
    if (embedded != null) {
      return;
    }
    if (labels == null) {
      throw new IllegalStateException("groups(labels) must be called before embed");
    }
    guard.checkEmbedder(embedder.name(), embedder.locality());
    String name = embedder.name();
    int dim = embedder.dimension();
    boolean allowRemote = guard.allowRemoteEmbedding();
    String storeId = id;
    EmbedderFactory f = factory;
    Broadcast<List<String>> names = broadcast(new ArrayList<>(labels));
    JavaRDD<EmbeddedRow> rows = indexed.mapPartitions(it -> {
      TextEmbedder e = executorEmbedder(storeId, f, name, dim);
      PrivacyGuard g = new PrivacyGuard(allowRemote, false);
      List<EmbeddedRow> out = new ArrayList<>();
      List<Tuple2<Long, PrivateRow>> batch = new ArrayList<>(BATCH);
      while (it.hasNext()) {
        batch.add(it.next());
        if (batch.size() == BATCH || !it.hasNext()) {
          List<PrivateText> texts = new ArrayList<>(batch.size());
          for (Tuple2<Long, PrivateRow> t : batch) {
            texts.add(PrivateText.of(t._2().text()));
          }
          EmbeddingMatrix unit =
              PrivateTexts.embed(e, texts, g, BATCH).normalizeRows(EmbeddingMatrix.ZeroRowPolicy.REJECT);
          for (int r = 0; r < batch.size(); r++) {
            Tuple2<Long, PrivateRow> t = batch.get(r);
            out.add(new EmbeddedRow(t._1(), groupOf(names.value(), t._1(), t._2()), unit.row(r)));
          }
          batch.clear();
        }
      }
      return out.iterator();
    });
    rows.persist(storageLevel);
    long n = rows.count(); // materialise once: every later pass reads the cached vectors
    if (n != size) {
      throw new IllegalStateException(
          "the private RDD yielded " + n + " records when embedded, " + size + " when counted: it must"
              + " yield the same rows each time it is computed");
    }
    embedded = rows;
    dimension = dim;
  }

  /** The executor's embedder for this store, made once per JVM and checked against the run's. */
  private static TextEmbedder executorEmbedder(String storeId, EmbedderFactory f, String name, int dim) {
    TextEmbedder e = EMBEDDERS.computeIfAbsent(storeId, k -> f.create());
    if (!e.name().equals(name) || e.dimension() != dim) {
      throw new IllegalStateException(
          "the executors' embedder '" + e.name() + "' (dimension " + e.dimension() + ") is not the run's embedder '"
              + name + "' (dimension " + dim + "): build the store's EmbedderFactory with the same model");
    }
    return e;
  }

  @Override
  public int dimension() {
    requireEmbedded();
    return dimension;
  }

  @Override
  public long[] nearestCounts(int group, EmbeddingMatrix candidates, float[] centre, int k) {
    requireEmbedded();
    int c = candidates.rows();
    int d = candidates.dimension();
    if (c == 0) {
      return new long[0];
    }
    Broadcast<float[]> cand = broadcast(candidates.toFlatArray());
    Broadcast<float[]> ctr = centre == null ? null : broadcast(centre.clone());
    long[] counts = embedded
        .mapPartitions(it -> {
          List<float[]> rows = new ArrayList<>();
          while (it.hasNext()) {
            EmbeddedRow r = it.next();
            if (r.group() == group) {
              rows.add(r.unit());
            }
          }
          if (rows.isEmpty()) {
            return List.of(new long[c]).iterator();
          }
          EmbeddingMatrix mine = EmbeddingMatrix.of(rows.toArray(new float[0][]));
          EmbeddingMatrix cm = EmbeddingMatrix.ofFlat(c, d, cand.value());
          return List.of(PrivateStore.countNearest(mine, cm, ctr == null ? null : ctr.value(), k)).iterator();
        })
        .fold(new long[c], SparkPrivateStore::add);
    unpersist(cand);
    if (ctr != null) {
      unpersist(ctr);
    }
    return counts;
  }

  private static long[] add(long[] a, long[] b) {
    long[] out = a.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += b[i];
    }
    return out;
  }

  @Override
  public ClusterAggregate clusterAggregate(int[] sampled, EmbeddingMatrix publicCentres) {
    return aggregate(sampled, publicCentres);
  }

  /**
   * SecPE's split asks for the embeddings of a sample of the records that hold no secret, to seed
   * its k-means: public data under the split's guarantee, and the one case in which embeddings
   * leave the executors (checked against the last secret scan on this driver first).
   */
  @Override
  public EmbeddingMatrix secretFreeEmbeddings(int[] records) {
    PrivateStore.requireSecretFree(records, size, lastScan);
    requireEmbedded();
    if (records.length == 0) {
      return EmbeddingMatrix.empty(dimension);
    }
    Broadcast<long[]> mask = broadcast(mask(records));
    List<Tuple2<Long, float[]>> rows = embedded
        .filter(r -> in(mask.value(), r.index()))
        .map(r -> new Tuple2<>(r.index(), r.unit()))
        .collect();
    unpersist(mask);
    List<Tuple2<Long, float[]>> sorted = new ArrayList<>(rows);
    sorted.sort((a, b) -> Long.compare(a._1(), b._1()));
    float[][] out = new float[sorted.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = sorted.get(i)._2();
    }
    return EmbeddingMatrix.of(out);
  }

  @Override
  public ClusterAggregate secretFreeAggregate(int[] records, EmbeddingMatrix centres) {
    PrivateStore.requireSecretFree(records, size, lastScan);
    return aggregate(records, centres);
  }

  @Override
  public int[] secretFreeNearest(int[] records, EmbeddingMatrix centres) {
    PrivateStore.requireSecretFree(records, size, lastScan);
    requireEmbedded();
    if (records.length == 0) {
      return new int[0];
    }
    int k = centres.rows();
    int d = centres.dimension();
    Broadcast<long[]> mask = broadcast(mask(records));
    Broadcast<float[]> cen = broadcast(centres.toFlatArray());
    List<Tuple2<Long, Integer>> nearest = embedded
        .mapPartitions(it -> {
          List<Long> index = new ArrayList<>();
          List<float[]> mine = rowsIn(it, mask.value(), index);
          if (mine.isEmpty()) {
            return Collections.<Tuple2<Long, Integer>>emptyIterator();
          }
          int[] c = ClusterAggregator.of(Metric.COSINE, EmbeddingMatrix.ofFlat(k, d, cen.value()), 1.0)
              .nearest(new ListRows(mine, d));
          List<Tuple2<Long, Integer>> out = new ArrayList<>(c.length);
          for (int i = 0; i < c.length; i++) {
            out.add(new Tuple2<>(index.get(i), c[i]));
          }
          return out.iterator();
        })
        .collect();
    unpersist(mask);
    unpersist(cen);
    // Back in the order of records (ascending record indices).
    int[] out = new int[records.length];
    for (Tuple2<Long, Integer> t : nearest) {
      out[Arrays.binarySearch(records, Math.toIntExact(t._1()))] = t._2();
    }
    return out;
  }

  @Override
  public ClusterVotes secretFreeVotes(
      int[] records, int[] clusters, EmbeddingMatrix candidates, float[] centre) {
    PrivateStore.requireSecretFree(records, size, lastScan);
    requireEmbedded();
    if (clusters.length != records.length) {
      throw new IllegalArgumentException(
          "one cluster per record, got " + clusters.length + " clusters for " + records.length + " records");
    }
    if (records.length == 0 || candidates.rows() == 0) {
      return ClusterVotes.none();
    }
    int c = candidates.rows();
    int d = candidates.dimension();
    // Each record's cluster by record index, + 1 (0: not asked for): the mask and the clusters at once.
    int[] clusterOf = new int[size];
    for (int i = 0; i < records.length; i++) {
      if (clusters[i] < 0) {
        throw new IllegalArgumentException("clusters must be >= 0, got " + clusters[i] + " at position " + i);
      }
      clusterOf[records[i]] = clusters[i] + 1;
    }
    Broadcast<int[]> of = broadcast(clusterOf);
    Broadcast<float[]> cand = broadcast(candidates.toFlatArray());
    Broadcast<float[]> ctr = centre == null ? null : broadcast(centre.clone());
    ClusterVotes votes = embedded
        .mapPartitions(it -> {
          int[] byIndex = of.value();
          List<float[]> rows = new ArrayList<>();
          List<Integer> cl = new ArrayList<>();
          while (it.hasNext()) {
            EmbeddedRow r = it.next();
            int x = byIndex[Math.toIntExact(r.index())];
            if (x > 0) {
              rows.add(r.unit());
              cl.add(x - 1);
            }
          }
          if (rows.isEmpty()) {
            return List.of(ClusterVotes.none()).iterator();
          }
          EmbeddingMatrix mine = EmbeddingMatrix.of(rows.toArray(new float[0][]));
          return List.of(PrivateStore.countClusterVotes(mine, cl.stream().mapToInt(Integer::intValue).toArray(),
              EmbeddingMatrix.ofFlat(c, d, cand.value()), ctr == null ? null : ctr.value())).iterator();
        })
        .treeReduce(ClusterVotes::merge, TREE_DEPTH);
    unpersist(of);
    unpersist(cand);
    if (ctr != null) {
      unpersist(ctr);
    }
    return votes;
  }

  /**
   * {@link ClusterAggregator#aggregate} under cosine of the records {@code records} against {@code
   * centres}: each partition aggregates its own, the driver merges them (exactly).
   */
  private ClusterAggregate aggregate(int[] records, EmbeddingMatrix centres) {
    requireEmbedded();
    int k = centres.rows();
    int d = centres.dimension();
    Broadcast<long[]> mask = broadcast(mask(records));
    Broadcast<float[]> cen = broadcast(centres.toFlatArray());
    // One aggregate per partition (K x d exact sums: tens of megabytes at K = 2,000), merged in a
    // tree on the executors, so that the driver reads a few, not one per partition.
    ClusterAggregate total = embedded
        .mapPartitions(it -> {
          List<float[]> mine = new ArrayList<>();
          while (it.hasNext()) {
            EmbeddedRow r = it.next();
            if (in(mask.value(), r.index())) {
              mine.add(r.unit());
            }
          }
          if (mine.isEmpty()) {
            return List.of(new ClusterAggregate(k, d)).iterator();
          }
          ClusterAggregator agg = ClusterAggregator.of(Metric.COSINE, EmbeddingMatrix.ofFlat(k, d, cen.value()), 1.0);
          return List.of(agg.aggregate(new ListRows(mine, d))).iterator();
        })
        .treeReduce(ClusterAggregate::merge, TREE_DEPTH);
    unpersist(mask);
    unpersist(cen);
    return total;
  }

  /**
   * A partition's rows whose index is in {@code mask}, in order (not copied), adding each row's
   * record index to {@code indices}.
   */
  private static List<float[]> rowsIn(Iterator<EmbeddedRow> it, long[] mask, List<Long> indices) {
    List<float[]> rows = new ArrayList<>();
    while (it.hasNext()) {
      EmbeddedRow r = it.next();
      if (in(mask, r.index())) {
        rows.add(r.unit());
        indices.add(r.index());
      }
    }
    return rows;
  }

  /** Depth of the trees in which partitions' aggregates are merged (Spark's default for treeReduce). */
  private static final int TREE_DEPTH = 2;

  /** A partition's rows as the kernel reads them, in place (no copy of the partition). */
  private static final class ListRows implements RowSource {
    private final List<float[]> rows;
    private final int d;

    ListRows(List<float[]> rows, int d) {
      this.rows = rows;
      this.d = d;
    }

    @Override
    public long rows() {
      return rows.size();
    }

    @Override
    public int dim() {
      return d;
    }

    @Override
    public void read(long first, int count, float[] dst) {
      for (int r = 0; r < count; r++) {
        System.arraycopy(rows.get((int) first + r), 0, dst, r * d, d);
      }
    }
  }

  /** The records as a bit set over the store's indices (n / 8 bytes to broadcast). */
  private long[] mask(int[] records) {
    long[] bits = new long[(size + 63) >>> 6];
    for (int r : records) {
      bits[r >>> 6] |= 1L << (r & 63);
    }
    return bits;
  }

  private static boolean in(long[] mask, long index) {
    return (mask[(int) (index >>> 6)] & (1L << (index & 63))) != 0;
  }

  @Override
  public SecretIndex secrets(SecretDetector detector, PrivacyGuard guard) {
    guard.checkSecretDetector(detector.name(), detector.locality());
    if (!(detector instanceof Serializable)) {
      throw new IllegalArgumentException(
          "secret detector '" + detector.name() + "' must be java.io.Serializable to run on Spark executors"
              + " (the built-in pii-regex, random-words and dictionary detectors are)");
    }
    // Keyed by the records themselves (DatasetKey.Keys#secretIdKey), as the in-memory store keys
    // them: the same records and detector give the same ids, so the journal can compose the runs.
    byte[] key = keys().secretIdKey();
    boolean allowRemote = guard.allowRemoteSecretDetection();
    List<Tuple2<Long, ArrayList<Secret>>> found = indexed
        .mapToPair(t -> {
          SecretIds ids = SecretIds.withKey(key);
          PrivacyGuard g = new PrivacyGuard(false, allowRemote);
          return new Tuple2<>(t._1(), new ArrayList<>(SecretIndex.secretsIn(
              PrivateText.of(t._2().text()), detector, g, SecretIndex.Granularity.VALUE, ids)));
        })
        .collect();
    List<List<Secret>> ordered = new ArrayList<>(Collections.nCopies(size, List.<Secret>of()));
    for (Tuple2<Long, ArrayList<Secret>> t : found) {
      ordered.set(Math.toIntExact(t._1()), t._2());
    }
    Arrays.fill(key, (byte) 0);
    lastScan = SecretIndex.of(ordered);
    return lastScan;
  }

  @Override
  public long[] recordKeys(long key) {
    List<Tuple2<Long, Long>> keys = indexed
        .mapToPair(t -> new Tuple2<>(t._1(), PrivateTexts.recordKey(record(t._1(), t._2()), key)))
        .collect();
    long[] out = new long[size];
    for (Tuple2<Long, Long> t : keys) {
      out[Math.toIntExact(t._1())] = t._2();
    }
    return out;
  }

  private static PrivateRecord record(long index, PrivateRow row) {
    return new PrivateRecord(
        "r" + index, PrivateText.of(row.text()), row.label().map(Label::of));
  }

  @Override
  public Optional<PrivateDataset> inMemory() {
    return Optional.empty();
  }

  /** Drops the cached embeddings and the broadcasts this store made. */
  @Override
  public void close() {
    if (embedded != null) {
      embedded.unpersist(false);
      embedded = null;
    }
    for (Broadcast<?> b : broadcasts) {
      b.destroy();
    }
    broadcasts.clear();
    EMBEDDERS.remove(id); // this JVM's (the driver's, or local mode's executors')
  }

  private <T> Broadcast<T> broadcast(T value) {
    Broadcast<T> b = sc.broadcast(value);
    broadcasts.add(b);
    return b;
  }

  private void unpersist(Broadcast<?> b) {
    b.destroy();
    broadcasts.remove(b);
  }

  private void requireEmbedded() {
    if (embedded == null) {
      throw new IllegalStateException("the private records were not embedded yet (embed first)");
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  @Override
  public String toString() {
    return "SparkPrivateStore[" + size + " records]";
  }

  /** A record's index, label group and unit embedding: what the executors cache (no text). */
  record EmbeddedRow(long index, int group, float[] unit) implements Serializable {
    /** No vector values: a row that reaches a log shows its shape only. */
    @Override
    public String toString() {
      return "EmbeddedRow[d=" + unit.length + "]";
    }
  }

  /** Builder: the records and the executors' embedder are required. */
  public static final class Builder {
    private JavaRDD<PrivateRow> rows;
    private EmbedderFactory factory;
    private StorageLevel storageLevel = StorageLevel.MEMORY_AND_DISK();

    private Builder() {}

    /**
     * The private records (required): row i is record i, so the RDD must yield its rows in the
     * same order each time it is computed.
     */
    public Builder records(JavaRDD<PrivateRow> rows) {
      this.rows = Objects.requireNonNull(rows, "records");
      return this;
    }

    /** How each executor makes its embedder (required): the same model as the run's embedder. */
    public Builder embedder(EmbedderFactory factory) {
      this.factory = Objects.requireNonNull(factory, "embedder");
      return this;
    }

    /**
     * Where executors keep the embeddings between rounds (default {@code MEMORY_AND_DISK}; use a
     * serialised or memory-only level to keep private vectors off local disks).
     */
    public Builder storageLevel(StorageLevel level) {
      this.storageLevel = Objects.requireNonNull(level, "storageLevel");
      return this;
    }

    /**
     * Counts the records (one Spark job) and returns the store.
     *
     * @throws IllegalStateException if a required setting is missing
     * @throws IllegalArgumentException if the RDD is empty or mixes labelled and unlabelled rows
     */
    public SparkPrivateStore build() {
      List<String> missing = new ArrayList<>();
      if (rows == null) {
        missing.add("records");
      }
      if (factory == null) {
        missing.add("embedder");
      }
      if (!missing.isEmpty()) {
        throw new IllegalStateException("required settings missing: " + String.join(", ", missing));
      }
      return new SparkPrivateStore(this);
    }
  }
}
