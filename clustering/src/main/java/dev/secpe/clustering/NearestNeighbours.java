package dev.secpe.clustering;

import dev.secpe.clustering.internal.KernelProbe;
import dev.secpe.clustering.spi.NativeGemm;
import dev.secpe.core.EmbeddingMatrix;
import java.util.Arrays;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The kernel behind every method: for each row of A, its nearest row(s) of B.
 *
 * <p>A is processed in blocks of {@link #blockRowsFor(int) blockRows} rows and B in column
 * chunks (at most 4096 columns by default): for each block and chunk a float GEMM tile {@code
 * A_block B_chunk^T} (ND4J/OpenBLAS or plain Java, see {@link Backend}) is computed and at once
 * scanned for the best candidates, while it is still in cache; per row only the running best
 * value and the few columns near it are kept. So the full score matrix is never materialised
 * and memory stays {@code O(lanes x blockRows x chunk)} whatever |A| and |B| are (A may be a
 * streaming {@link RowSource}, read block by block and never copied whole). The scan is one
 * vectorised maximum per tile row where {@code secpe-kernel-openblas} provides its Vector API scan
 * and the application adds the JDK's module ({@code --add-modules jdk.incubator.vector}), and a
 * scalar loop otherwise, with the same results. L2
 * uses the squared-norm trick ({@code |b|^2 - 2 a.b}); cosine normalises both sides first (SecPE
 * Remark 3.3).
 *
 * <p><b>Threads.</b> With ND4J each GEMM already runs on OpenBLAS's threads, so two blocks are in
 * flight (one's scan overlaps the other's GEMM) and each block's preparation, scan and exact
 * re-check are split by rows over half the kernel's threads; where OpenBLAS has one thread, and
 * with the single-threaded plain-Java GEMM, each thread takes whole blocks.
 *
 * <p><b>Exact, deterministic ties.</b> The winner is defined on the exact scores of {@link
 * Metric} (double accumulation in index order), not on the GEMM result, so it does not depend
 * on the backend, block size, thread count or BLAS summation order: the float GEMM only
 * shortlists candidates. Every candidate whose float score is within twice a rigorous bound of
 * the float GEMM's rounding error ({@code gamma_{d+2} |a| max|b|}, Higham's bound for any
 * summation order, plus the rounding of the norm terms) of the best float score is rescored in
 * double; the best exact score wins and among equal exact scores the lowest index wins. Top-k
 * does the same against the k-th best float score and orders by (score, index).
 *
 * <p>Instances are immutable and thread-safe; build them with {@link #builder()}. A call changes
 * no process-wide setting (OpenBLAS threads are the application's choice: {@link BlasThreads}),
 * and its workers come from one pool shared and reused by every kernel.
 */
public final class NearestNeighbours {

  /** Unit roundoff of float. */
  static final double U = 0x1p-24;

  /** Widest column chunk of B the automatic tiling uses (see {@link Tiling}). */
  static final int AUTO_CHUNK_COLUMNS = 4096;

  private final Metric metric;
  private final Backend backend;
  /**
   * Worker threads shared by every kernel in the process and reused across calls (daemon threads,
   * created on demand, retired after a minute idle): no pool is created per call.
   */
  private static final ExecutorService WORKERS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "secpe-nn-worker");
            t.setDaemon(true);
            return t;
          });

  private final int threads;
  private final int blockRows;
  private final long blockBytes;
  private final boolean prenormalised;
  private final int chunkColumns;
  private final int parts;
  private final RowScan scan;

  private NearestNeighbours(Builder b) {
    this.metric = b.metric;
    this.backend = b.backend;
    this.threads = b.threads;
    this.blockRows = b.blockRows;
    this.blockBytes = b.blockBytes;
    this.prenormalised = b.prenormalised;
    this.chunkColumns = b.chunkColumns;
    this.parts = b.parts;
    this.scan = b.scan;
  }

  /** A builder with defaults: cosine, {@link Backend#AUTO}, one thread per core, auto block. */
  public static Builder builder() {
    return new Builder();
  }

  /** The metric. */
  public Metric metric() {
    return metric;
  }

  /** The backend as configured (AUTO resolves per call). */
  public Backend backend() {
    return backend;
  }

  /** The number of worker threads. */
  public int threads() {
    return threads;
  }

  /** The configured rows per block (0 = chosen from {@code |B|} and the block-bytes target). */
  public int blockRows() {
    return blockRows;
  }

  /**
   * The backend a call would use now: the configured one, or for AUTO CUDA where its add-on
   * loads and a GPU answers, else OpenBLAS where its add-on loads, else ND4J where it loads, else
   * JAVA.
   */
  public Backend resolvedBackend() {
    return resolve(backend);
  }

  // ------------------------------------------------------------------------------------------

  /** Result of a top-1 search: for each row of A, its nearest row of B and the exact score. */
  public record Top1(int[] index, double[] score) {
    /** Copies the arrays. */
    public Top1 {
      index = index.clone();
      score = score.clone();
    }

    /** For each row of A, the index of its nearest row of B (a copy). */
    @Override
    public int[] index() {
      return index.clone();
    }

    /** For each row of A, the exact score of its nearest row of B (a copy). */
    @Override
    public double[] score() {
      return score.clone();
    }

    /** Index of the nearest row of B for row {@code i} of A. */
    public int indexOf(int i) {
      return index[i];
    }

    /** Exact score (see {@link Metric}) of that pair. */
    public double scoreOf(int i) {
      return score[i];
    }
  }

  /**
   * Result of a top-k search: {@code index[i]} lists the k nearest rows of B for row i of A,
   * nearest first (ties: lower index first), {@code score[i]} their exact scores.
   */
  public record TopK(int k, int[][] index, double[][] score) {
    /** Deep-copies the arrays. */
    public TopK {
      index = deepCopy(index);
      score = deepCopy(score);
    }

    /** For each row of A, its k nearest rows of B, nearest first (a deep copy). */
    @Override
    public int[][] index() {
      return deepCopy(index);
    }

    /** For each row of A, the exact scores of its k nearest rows of B (a deep copy). */
    @Override
    public double[][] score() {
      return deepCopy(score);
    }

    private static int[][] deepCopy(int[][] x) {
      int[][] y = new int[x.length][];
      for (int i = 0; i < x.length; i++) {
        y[i] = x[i].clone();
      }
      return y;
    }

    private static double[][] deepCopy(double[][] x) {
      double[][] y = new double[x.length][];
      for (int i = 0; i < x.length; i++) {
        y[i] = x[i].clone();
      }
      return y;
    }
  }

  /**
   * Receives the top-1 results of one block of A ({@code count} rows from {@code firstRow}).
   * Calls are serialised (never concurrent) but blocks arrive in no particular order; the arrays
   * are reused after the call returns.
   */
  @FunctionalInterface
  public interface Top1Consumer {
    /** One block of results. */
    void accept(long firstRow, int count, int[] index, double[] score);
  }

  // ------------------------------------------------------------------------------------------

  /** For each row of {@code a}, its nearest row of {@code b}; {@code a} must have fewer than 2^31 rows. */
  public Top1 top1(RowSource a, EmbeddingMatrix b) {
    return top1(a, Embeddings.of("b", b));
  }

  /** Streaming top-1: results go to {@code consumer} block by block; memory stays bounded. */
  public void top1(RowSource a, EmbeddingMatrix b, Top1Consumer consumer) {
    top1(a, Embeddings.of("b", b), consumer);
  }

  /**
   * How many rows of {@code a} have each row of {@code b} as their nearest (the Aug-PE vote,
   * before noise): {@code counts[j] = |{i : top1(a_i) = j}|}.
   */
  public long[] nearestCounts(RowSource a, EmbeddingMatrix b) {
    return nearestCounts(a, Embeddings.of("b", b));
  }

  /** For each row of {@code a}, its {@code k} nearest rows of {@code b}, nearest first. */
  public TopK topK(RowSource a, EmbeddingMatrix b, int k) {
    return topK(a, Embeddings.of("b", b), k);
  }

  Top1 top1(RowSource a, Embeddings b) {
    long rows = a.rows();
    if (rows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a has too many rows for an in-memory result, got a.rows=" + rows
              + "; use top1(RowSource, EmbeddingMatrix, Top1Consumer)");
    }
    int[] idx = new int[(int) rows];
    double[] sc = new double[(int) rows];
    top1(a, b, (first, count, index, score) -> {
      System.arraycopy(index, 0, idx, (int) first, count);
      System.arraycopy(score, 0, sc, (int) first, count);
    });
    return new Top1(idx, sc);
  }

  void top1(RowSource a, Embeddings b, Top1Consumer consumer) {
    run(a, b, 1, (first, count, index, score) -> consumer.accept(first, count, index[0], score[0]));
  }

  long[] nearestCounts(RowSource a, Embeddings b) {
    long[] counts = new long[b.size()];
    run(a, b, 1, (first, count, index, score) -> {
      for (int r = 0; r < count; r++) {
        counts[index[0][r]]++;
      }
    }, null, false); // only indices: a unique winner needs no exact score
    return counts;
  }

  TopK topK(RowSource a, Embeddings b, int k) {
    if (k < 1 || k > b.size()) {
      throw new IllegalArgumentException(
          "k must be in 1..b.rows=" + b.size() + ", got k=" + k);
    }
    long rows = a.rows();
    if (rows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a has too many rows, got a.rows=" + rows);
    }
    int[][] idx = new int[(int) rows][];
    double[][] sc = new double[(int) rows][];
    run(a, b, k, (first, count, index, score) -> {
      for (int r = 0; r < count; r++) {
        idx[(int) first + r] = Arrays.copyOfRange(index[0], r * k, (r + 1) * k);
        sc[(int) first + r] = Arrays.copyOfRange(score[0], r * k, (r + 1) * k);
      }
    });
    return new TopK(k, idx, sc);
  }

  // ------------------------------------------------------------------------------------------

  /** Internal sink; for k = 1 index[0]/score[0] hold one entry per row, else k per row. */
  private interface Sink {
    void accept(long first, int count, int[][] index, double[][] score);
  }

  /**
   * Top-1 results with the block's rows as read (before any normalisation); the scores are not
   * computed (NaN) where the winner was unique on the float scores.
   */
  interface RowsTop1Consumer {
    void accept(long first, int count, float[] rows, int[] index, double[] score);
  }

  /** Streaming top-1 that also hands each block's raw rows to the consumer (serialised). */
  void top1WithRows(RowSource a, Embeddings b, RowsTop1Consumer consumer) {
    run(a, b, 1, null, consumer, false);
  }

  private void run(RowSource a, Embeddings b, int k, Sink sink) {
    run(a, b, k, sink, null, true);
  }

  /** Prepared B: normalised (cosine) copy, exact squared norms, max norm. */
  static final class Prepared {
    final Metric metric;
    final int n;
    final int d;
    final float[] data;
    final double[] sq;
    final float[] sqf;
    final double maxNorm;

    final boolean prenormalised;

    Prepared(Metric metric, Embeddings b, boolean prenormalised) {
      this.metric = metric;
      this.prenormalised = prenormalised;
      this.n = b.size();
      this.d = b.dim();
      float[] src = b.data();
      this.data =
          metric == Metric.COSINE && !prenormalised ? normalisedCopy("b", src, n, d, 0) : src;
      this.sq = new double[n];
      this.sqf = new float[n];
      ExactDots.selfDots(data, 0, n, d, sq, 0);
      double mx = 0;
      for (int j = 0; j < n; j++) {
        sqf[j] = (float) sq[j];
        mx = Math.max(mx, sq[j]);
      }
      this.maxNorm = Math.sqrt(mx) * (1 + 4 * U);
    }
  }

  /** The exact score's inner product: double accumulation in index order. */
  static double exactDot(float[] x, int xo, float[] y, int yo, int d) {
    double s = 0;
    for (int i = 0; i < d; i++) {
      s += (double) x[xo + i] * (double) y[yo + i];
    }
    return s;
  }

  /**
   * The scalar product of two float rows in double, as {@link #exactDot} but summed in four
   * interleaved partial sums (element {@code i} into sum {@code i mod 4}, then {@code (s0 + s1) +
   * (s2 + s3)}): a fixed order, so as deterministic on every machine, and about four times faster
   * on a loop whose one dependent addition otherwise bounds it. The result may differ from
   * {@link #exactDot}'s in its last bits.
   */
  static double exactDotUnrolled(float[] x, int xo, float[] y, int yo, int d) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int i = 0;
    for (; i + 3 < d; i += 4) {
      s0 += (double) x[xo + i] * (double) y[yo + i];
      s1 += (double) x[xo + i + 1] * (double) y[yo + i + 1];
      s2 += (double) x[xo + i + 2] * (double) y[yo + i + 2];
      s3 += (double) x[xo + i + 3] * (double) y[yo + i + 3];
    }
    for (; i < d; i++) {
      s0 += (double) x[xo + i] * (double) y[yo + i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /**
   * Runs {@code task(0 .. parts-1)} on the kernels' shared workers, part 0 on this thread;
   * returns when all have finished.
   */
  static void fork(int parts, Forks.Task task) {
    Forks.run(WORKERS, parts, task);
  }

  /** The exact L2 score (see {@link Metric}). */
  static double l2Score(double aa, double bb, double dot) {
    return Math.max(0.0, (aa + bb) - 2.0 * dot);
  }

  /**
   * Normalises rows in place semantics on a copy: {@code x / |x|} computed in double, rounded to
   * float. Rejects zero rows naming the row ({@code rowOffset} + local index).
   */
  static float[] normalisedCopy(String name, float[] src, int rows, int d, long rowOffset) {
    float[] out = new float[rows * d];
    normaliseInto(name, src, rows, d, rowOffset, out);
    return out;
  }

  static void normaliseInto(String name, float[] src, int rows, int d, long rowOffset, float[] out) {
    double[] norms = new double[rows];
    ExactDots.selfDots(src, 0, rows, d, norms, 0);
    for (int r = 0; r < rows; r++) {
      double s = norms[r];
      if (!(s > 0)) {
        throw new IllegalArgumentException(
            name + " rows must be non-zero under cosine, got " + name + "[" + (rowOffset + r)
                + "] = zero vector");
      }
      double inv = 1.0 / Math.sqrt(s);
      for (int i = 0; i < d; i++) {
        out[r * d + i] = (float) (src[r * d + i] * inv);
      }
    }
  }

  /** What each native backend's first use found: loaded once per JVM, or why not. */
  private static final class Natives {
    static final Object LOCK = new Object();
    static final Provider OPENBLAS = new Provider("openblas", "OpenBLAS", "secpe-kernel-openblas");
    /** No add-on, no CUDA library, no device: the reason is kept for the error and AUTO's note. */
    static final Provider CUDA = new Provider("cuda", "CUDA", "secpe-kernel-cuda");
    static final Provider ND4J = new Provider("nd4j", "ND4J", "secpe-kernel-nd4j");
  }

  /**
   * A {@link NativeGemm} add-on looked up by name through {@link ServiceLoader} and loaded once per
   * JVM: the provider, or why there is none (no add-on on the path, or its {@code load()} failed).
   */
  static final class Provider {
    private final String name;
    private final String label;
    private final String artifact;
    private volatile boolean tried;
    private volatile NativeGemm gemm;
    private volatile Throwable failure;

    Provider(String name, String label, String artifact) {
      this.name = name;
      this.label = label;
      this.artifact = artifact;
    }

    /** The loaded provider, or null. */
    NativeGemm get() {
      if (tried) {
        return gemm;
      }
      synchronized (Natives.LOCK) {
        if (!tried) {
          NativeGemm found = null;
          Throwable why = null;
          try {
            for (NativeGemm g : ServiceLoader.load(NativeGemm.class, NativeGemm.class.getClassLoader())) {
              if (name.equals(g.name())) {
                g.load();
                found = g;
                break;
              }
            }
          } catch (Throwable t) { // UnsatisfiedLinkError, ServiceConfigurationError, no device
            why = t;
          }
          if (found == null) {
            System.getLogger("dev.secpe.clustering").log(System.Logger.Level.DEBUG,
                why == null ? "no " + label + " provider (dev.secpe:" + artifact + ") on the path"
                    : label + " did not load (" + why.getClass().getSimpleName() + ": "
                        + why.getMessage() + ")");
          }
          gemm = found;
          failure = why;
          tried = true;
        }
        return gemm;
      }
    }

    /** Why {@link #get} gives null, in one phrase, for a {@code backend=...} error. */
    String whyNot() {
      get();
      Throwable t = failure;
      return t == null ? "no " + label + " provider on the class or module path (add dev.secpe:"
          + artifact + ")" : t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    Throwable failure() {
      get();
      return failure;
    }
  }

  /**
   * The backend a call uses: JAVA as configured; CUDA, OPENBLAS or ND4J when configured and
   * loadable (else an {@link IllegalStateException} naming the cause and the add-on); AUTO: CUDA
   * ({@code secpe-kernel-cuda}) where it loads and a device answers, else OpenBLAS ({@code
   * secpe-kernel-openblas}) where it loads, else ND4J ({@code secpe-kernel-nd4j}), else JAVA. What
   * did not load is said once per JVM at DEBUG (the library prints nothing of its own).
   */
  private static Backend resolve(Backend configured) {
    if (configured == Backend.JAVA) {
      return Backend.JAVA;
    }
    if (configured == Backend.CUDA || configured == Backend.AUTO) {
      if (Natives.CUDA.get() != null) {
        return Backend.CUDA;
      }
      if (configured == Backend.CUDA) {
        throw new IllegalStateException("backend=CUDA but CUDA could not be used: "
            + Natives.CUDA.whyNot(), Natives.CUDA.failure());
      }
    }
    if (configured != Backend.ND4J) {
      if (Natives.OPENBLAS.get() != null) {
        return Backend.OPENBLAS;
      }
      if (configured == Backend.OPENBLAS) {
        throw new IllegalStateException("backend=OPENBLAS but OpenBLAS could not load: "
            + Natives.OPENBLAS.whyNot(), Natives.OPENBLAS.failure());
      }
    }
    if (Natives.ND4J.get() != null) {
      return Backend.ND4J;
    }
    if (configured == Backend.ND4J) {
      throw new IllegalStateException("backend=ND4J but ND4J could not load: "
          + Natives.ND4J.whyNot(), Natives.ND4J.failure());
    }
    return Backend.JAVA;
  }

  /** The OpenBLAS provider if one is on the path and its library loads, else null (once per JVM). */
  static NativeGemm openBlas() {
    return Natives.OPENBLAS.get();
  }

  /** The ND4J provider if one is on the path and ND4J loads, else null (once per JVM). */
  static NativeGemm nd4j() {
    return Natives.ND4J.get();
  }

  /** The rows per block this kernel uses against a B of {@code n} rows. */
  public int blockRowsFor(int n) {
    return tiling(n).blockRows();
  }

  /**
   * Blocks of A and column chunks of B against a B of {@code n} rows. Automatic: chunks of at
   * most {@link #AUTO_CHUNK_COLUMNS} columns, and as many rows as make one tile (block x chunk
   * floats) about {@code blockBytes}, 64..4096 rows, a multiple of 16.
   */
  Tiling tiling(int n) {
    Tiling t = Tiling.of(n, 1, chunkColumns > 0 ? chunkColumns : AUTO_CHUNK_COLUMNS,
        chunkColumns > 0);
    int rows = blockRows;
    if (rows == 0) {
      long r = blockBytes / ((long) t.chunkCols() * Float.BYTES);
      r = Math.max(64, Math.min(4096, r));
      rows = (int) (r / 16 * 16);
    }
    return new Tiling(n, rows, t.chunkCols(), t.chunks());
  }

  private void run(RowSource a, Embeddings b, int k, Sink sink, RowsTop1Consumer rowsSink,
      boolean scores) {
    if (a == null || b == null) {
      throw new IllegalArgumentException("a and b must not be null, got a=" + a + " b=" + b);
    }
    if (a.dim() != b.dim()) {
      throw new IllegalArgumentException(
          "a and b must have the same dim, got a.dim=" + a.dim() + " b.dim=" + b.dim());
    }
    long rows = a.rows();
    if (rows == 0) {
      return;
    }
    Prepared pb = new Prepared(metric, b, prenormalised);
    Backend used = resolve(backend);
    Tiling tiling = tiling(pb.n);
    int br = tiling.blockRows();
    long blocks = (rows + br - 1) / br;
    KernelProbe probe = KernelProbe.current();
    RowScan rowScan = probe != null && probe.scalarScan() ? ScalarRowScan.INSTANCE
        : scan != null ? scan : RowScan.preferred();
    // A GEMM of the ND4J backend already runs on OpenBLAS's threads (the application's setting,
    // read here, never changed): two blocks in flight then, so that one's scan overlaps the
    // other's GEMM, each block's scan split over half the threads; with the OpenBLAS backend one
    // block (below). With one BLAS thread, or the single-threaded Java GEMM, one block per thread.
    int blasThreads = used == Backend.ND4J ? Natives.ND4J.get().threads()
        : used == Backend.OPENBLAS ? Natives.OPENBLAS.get().threads() : 1;
    // CUDA: the GPU computes and scans; two lanes (each its own stream) so that one block's
    // reading, preparation and exact re-check on the CPU overlap the other's GPU work, each split
    // over half the threads.
    int parts = this.parts > 0 ? Math.min(this.parts, threads)
        : used == Backend.CUDA ? Math.max(1, threads / 2)
        : blasThreads > 1 ? Math.max(1, threads / 2) : 1;
    int lanes = (int) Math.max(1, Math.min(threads / parts, blocks));
    // Column-major tiles for top-1 where the GEMM computes them and the scan reads tiles in
    // place (the Vector API scan): one front-to-back pass per tile finds every row's maximum and
    // position. The scalar scan keeps row-major tiles, on which it measured faster, and so does
    // top-k, whose first tiles collect whole rows (a strided gather from a column-major tile).
    boolean columns = k == 1 && used == Backend.OPENBLAS && Natives.OPENBLAS.get().columnMajor()
        && rowScan.readsBuffers();
    if (columns && this.parts == 0 && blasThreads > 1) {
      // OpenBLAS runs two threaded GEMMs one after the other (measured: their summed time doubled,
      // 0.92 s against 0.43 s for one lane), so a second lane only overlaps its scan with a GEMM
      // that already has every core: with this scan one lane measured 2-4 % faster (20000 x 5000
      // and 40000 x 35000, 2 cores; docs/clustering-performance.md).
      lanes = 1;
    }
    if (probe != null) {
      probe.layout(rowScan.name(), lanes, parts, br, tiling.chunkCols());
    }
    AtomicLong next = new AtomicLong();
    Object sinkLock = new Object();
    try (BlockScorer.Factory factory =
        used == Backend.CUDA
            ? NativeScorer.factory(Natives.CUDA.get(), pb.data, pb.d, tiling, probe, false,
                k == 1 && Natives.CUDA.get().fusedTop2()
                    ? new NativeScorer.Fused(metric == Metric.L2, pb.sqf) : null)
            : used == Backend.OPENBLAS
            ? NativeScorer.factory(Natives.OPENBLAS.get(), pb.data, pb.d, tiling, probe, columns, null)
            : used == Backend.ND4J
            ? NativeScorer.factory(Natives.ND4J.get(), pb.data, pb.d, tiling, probe, false, null)
            : JavaScorer.factory(pb.data, pb.d, tiling)) {
      Runnable work = () -> {
        try (Lane lane = new Lane(pb, a, k, scores, factory.newScorer(br), tiling, rowScan, parts,
            WORKERS, probe)) {
          long blk;
          while ((blk = next.getAndIncrement()) < blocks) {
            long first = blk * br;
            int count = (int) Math.min(br, rows - first);
            lane.process(first, count);
            long t0 = System.nanoTime();
            synchronized (sinkLock) {
              if (rowsSink != null) {
                rowsSink.accept(first, count, lane.raw, lane.outIndex, lane.outScore);
              } else {
                sink.accept(first, count, new int[][] {lane.outIndex},
                    new double[][] {lane.outScore});
              }
            }
            if (probe != null) {
              probe.add(KernelProbe.Phase.DELIVER, System.nanoTime() - t0);
            }
          }
        }
      };
      Forks.run(WORKERS, lanes, lane -> work.run());
    }
  }

  // ------------------------------------------------------------------------------------------

  /** Builder; each setter validates at once. Reusable: {@link #build()} snapshots it. */
  public static final class Builder extends KernelBuilder<Builder> {
    private int blockRows = 0;
    private long blockBytes = 16L << 20;
    private boolean prenormalised;
    private int chunkColumns;
    private int parts;
    private RowScan scan;

    Builder() {
      super(Metric.COSINE);
    }

    @Override
    Builder self() {
      return this;
    }

    /** Internal (tests): column chunks of exactly this width (0 = automatic). */
    Builder chunkColumns(int columns) {
      if (columns < 0) {
        throw new IllegalArgumentException("chunkColumns must be >= 0, got chunkColumns=" + columns);
      }
      this.chunkColumns = columns;
      return this;
    }

    /** Internal (tests): threads sharing one block's scan (0 = automatic). */
    Builder parts(int parts) {
      if (parts < 0) {
        throw new IllegalArgumentException("parts must be >= 0, got parts=" + parts);
      }
      this.parts = parts;
      return this;
    }

    /** Internal (tests): the scan implementation (null = {@link RowScan#preferred()}). */
    Builder scan(RowScan scan) {
      this.scan = scan;
      return this;
    }

    /** Internal: cosine on rows the caller already normalised (no renormalisation). */
    Builder prenormalised(boolean p) {
      this.prenormalised = p;
      return this;
    }

    /** The metric (default {@link Metric#COSINE}). */
    public Builder metric(Metric metric) {
      return setMetric(metric);
    }

    /**
     * Rows of A per block; 0 (the default) picks {@code blockBytes / (4 chunk)} clamped to
     * 64..4096, rounded down to a multiple of 16, {@code chunk} being the column chunk of B
     * (at most 4096). Memory per block in flight is about {@code blockRows x (chunk + 2d) x 4}
     * bytes.
     */
    public Builder blockRows(int blockRows) {
      if (blockRows < 0 || blockRows > 1 << 20) {
        throw new IllegalArgumentException(
            "blockRows must be in 0..1048576, got blockRows=" + blockRows);
      }
      this.blockRows = blockRows;
      return this;
    }

    /**
     * Target size in bytes of one score tile (block rows x chunk columns) when blockRows is 0
     * (default 16 MiB; see docs/clustering-performance.md).
     */
    public Builder blockBytes(long blockBytes) {
      if (blockBytes < 1024) {
        throw new IllegalArgumentException(
            "blockBytes must be >= 1024, got blockBytes=" + blockBytes);
      }
      this.blockBytes = blockBytes;
      return this;
    }

    /** An immutable kernel. */
    public NearestNeighbours build() {
      return new NearestNeighbours(this);
    }

    @Override
    public String toString() {
      return "NearestNeighbours.Builder{metric=" + metric + ", backend=" + backend + ", threads="
          + threads + ", blockRows=" + blockRows + "}";
    }
  }

  @Override
  public String toString() {
    return "NearestNeighbours{metric=" + metric + ", backend=" + backend + ", threads=" + threads
        + ", blockRows=" + blockRows + "}";
  }
}
