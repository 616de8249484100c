package dev.secpe.clustering;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The kernel behind every method: for each row of A, its nearest row(s) of B.
 *
 * <p>A is processed in blocks of {@link #blockRows()} rows; for each block a float GEMM
 * {@code A_block B^T} (ND4J/OpenBLAS or plain Java, see {@link Backend}) is followed by a scan
 * for the best candidates, so memory stays {@code O(threads x blockRows x |B|)} whatever |A| is
 * (A may be a streaming {@link RowSource}). L2 uses the squared-norm trick ({@code |b|^2 - 2 a.b});
 * cosine normalises both sides first (SecPE Remark 3.3).
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
  private static final double U = 0x1p-24;

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

  private NearestNeighbours(Builder b) {
    this.metric = b.metric;
    this.backend = b.backend;
    this.threads = b.threads;
    this.blockRows = b.blockRows;
    this.blockBytes = b.blockBytes;
    this.prenormalised = b.prenormalised;
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

  /** The backend a call would use now: ND4J if configured or AUTO and loadable, else JAVA. */
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

    @Override
    public int[] index() {
      return index.clone();
    }

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

    @Override
    public int[][] index() {
      return deepCopy(index);
    }

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
  public Top1 top1(RowSource a, Embeddings b) {
    long rows = a.rows();
    if (rows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a has too many rows for an in-memory result, got a.rows=" + rows
              + "; use top1(RowSource, Embeddings, Top1Consumer)");
    }
    int[] idx = new int[(int) rows];
    double[] sc = new double[(int) rows];
    top1(a, b, (first, count, index, score) -> {
      System.arraycopy(index, 0, idx, (int) first, count);
      System.arraycopy(score, 0, sc, (int) first, count);
    });
    return new Top1(idx, sc);
  }

  /** Streaming top-1: results go to {@code consumer} block by block; memory stays bounded. */
  public void top1(RowSource a, Embeddings b, Top1Consumer consumer) {
    run(a, b, 1, (first, count, index, score) -> consumer.accept(first, count, index[0], score[0]));
  }

  /**
   * How many rows of {@code a} have each row of {@code b} as their nearest (the Aug-PE vote,
   * before noise): {@code counts[j] = |{i : top1(a_i) = j}|}.
   */
  public long[] nearestCounts(RowSource a, Embeddings b) {
    long[] counts = new long[b.size()];
    top1(a, b, (first, count, index, score) -> {
      for (int r = 0; r < count; r++) {
        counts[index[r]]++;
      }
    });
    return counts;
  }

  /** For each row of {@code a}, its {@code k} nearest rows of {@code b}, nearest first. */
  public TopK topK(RowSource a, Embeddings b, int k) {
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

  /** Top-1 results with the block's rows as read (before any normalisation). */
  interface RowsTop1Consumer {
    void accept(long first, int count, float[] rows, int[] index, double[] score);
  }

  /** Streaming top-1 that also hands each block's raw rows to the consumer (serialised). */
  void top1WithRows(RowSource a, Embeddings b, RowsTop1Consumer consumer) {
    run(a, b, 1, null, consumer);
  }

  private void run(RowSource a, Embeddings b, int k, Sink sink) {
    run(a, b, k, sink, null);
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
      double mx = 0;
      for (int j = 0; j < n; j++) {
        double s = exactDot(data, j * d, data, j * d, d);
        sq[j] = s;
        sqf[j] = (float) s;
        mx = Math.max(mx, s);
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
    for (int r = 0; r < rows; r++) {
      double s = exactDot(src, r * d, src, r * d, d);
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

  private static volatile Boolean nd4jLoadable;
  /** Why ND4J did not load, for the error of a later backend=ND4J request. */
  private static volatile Throwable nd4jFailure;

  private static Backend resolve(Backend configured) {
    if (configured == Backend.JAVA) {
      return Backend.JAVA;
    }
    Boolean ok = nd4jLoadable;
    if (ok == null) {
      synchronized (NearestNeighbours.class) {
        ok = nd4jLoadable;
        if (ok == null) {
          try {
            Nd4jRuntime.prepare();
            Nd4jScorer.load();
            ok = Boolean.TRUE;
          } catch (Throwable t) { // UnsatisfiedLinkError, NoClassDefFoundError, RuntimeException
            ok = Boolean.FALSE;
            nd4jFailure = t;
            // said once per JVM, at DEBUG: the library prints nothing of its own unless asked
            System.getLogger("dev.secpe.clustering").log(System.Logger.Level.DEBUG,
                "ND4J is not on the class path or did not load (" + t.getClass().getSimpleName()
                    + "): the vote kernel runs its pure-Java loops; add dev.secpe:secpe-kernel-nd4j for OpenBLAS");
            if (configured == Backend.ND4J) {
              throw new IllegalStateException(
                  "backend=ND4J but ND4J could not load: " + t.getClass().getSimpleName() + ": "
                      + t.getMessage(), t);
            }
          }
          nd4jLoadable = ok;
        }
      }
    }
    if (!ok && configured == Backend.ND4J) {
      Throwable t = nd4jFailure;
      throw new IllegalStateException("backend=ND4J but ND4J could not load on this machine"
          + (t == null ? "" : ": " + t.getClass().getSimpleName() + ": " + t.getMessage()), t);
    }
    return ok ? Backend.ND4J : Backend.JAVA;
  }

  /** The rows per block this kernel uses against a B of {@code n} rows. */
  public int blockRowsFor(int n) {
    return effectiveBlockRows(n);
  }

  int effectiveBlockRows(int n) {
    if (blockRows > 0) {
      return blockRows;
    }
    long perRow = (long) n * Float.BYTES;
    long r = blockBytes / Math.max(1, perRow);
    r = Math.max(64, Math.min(4096, r));
    return (int) (r / 16 * 16);
  }

  private void run(RowSource a, Embeddings b, int k, Sink sink, RowsTop1Consumer rowsSink) {
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
    int br = effectiveBlockRows(pb.n);
    long blocks = (rows + br - 1) / br;
    int workers = (int) Math.min(threads, blocks);
    AtomicLong next = new AtomicLong();
    Object sinkLock = new Object();
    try (BlockScorer.Factory factory =
        used == Backend.ND4J
            ? Nd4jScorer.factory(pb.data, pb.n, pb.d)
            : JavaScorer.factory(pb.data, pb.n, pb.d)) {
      Runnable work = () -> {
        try (BlockScorer scorer = factory.newScorer(br)) {
          Worker w = new Worker(pb, a, br, k, scorer);
          long blk;
          while ((blk = next.getAndIncrement()) < blocks) {
            long first = blk * br;
            int count = (int) Math.min(br, rows - first);
            w.process(first, count);
            synchronized (sinkLock) {
              if (rowsSink != null) {
                rowsSink.accept(first, count, w.raw, w.outIndex, w.outScore);
              } else {
                sink.accept(first, count, new int[][] {w.outIndex}, new double[][] {w.outScore});
              }
            }
          }
        }
      };
      if (workers == 1) {
        work.run();
      } else {
        List<Future<?>> fs = new ArrayList<>();
        try {
          for (int t = 0; t < workers; t++) {
            fs.add(WORKERS.submit(work));
          }
          for (Future<?> f : fs) {
            f.get();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (c instanceof RuntimeException re) {
            throw re;
          }
          if (c instanceof Error er) {
            throw er;
          }
          throw new IllegalStateException(c);
        } finally {
          for (Future<?> f : fs) {
            f.cancel(true); // no-op for finished work; stops the others after a failure
          }
        }
      }
    }
  }

  /** Per-thread state: buffers reused across blocks. */
  private static final class Worker {
    private final Prepared pb;
    private final RowSource a;
    private final int k;
    private final BlockScorer scorer;
    final float[] raw;
    private final float[] blk;
    private final float[] c;
    private final double[] aa;
    final int[] outIndex;
    final double[] outScore;
    private final float[] topVals;
    private int[] cand = new int[16];
    private double[] candScore = new double[16];

    Worker(Prepared pb, RowSource a, int br, int k, BlockScorer scorer) {
      this.pb = pb;
      this.a = a;
      this.k = k;
      this.scorer = scorer;
      this.raw = new float[br * pb.d];
      this.blk = pb.metric == Metric.COSINE && !pb.prenormalised ? new float[br * pb.d] : raw;
      this.c = new float[br * pb.n];
      this.aa = new double[br];
      this.outIndex = new int[br * k];
      this.outScore = new double[br * k];
      this.topVals = new float[k];
    }

    void process(long first, int count) {
      final int d = pb.d;
      a.read(first, count, raw);
      for (int i = 0; i < count * d; i++) {
        if (!Float.isFinite(raw[i])) {
          throw new IllegalArgumentException(
              "a must be finite, got a[" + (first + i / d) + "][" + (i % d) + "]=" + raw[i]);
        }
      }
      if (blk != raw) {
        normaliseInto("a", raw, count, d, first, blk);
      }
      for (int r = 0; r < count; r++) {
        aa[r] = exactDot(blk, r * d, blk, r * d, d);
      }
      scorer.scores(blk, count, c);
      for (int r = 0; r < count; r++) {
        selectRow(r);
      }
    }

    /** Float shortlist, exact rescoring, (score, index) order. */
    private void selectRow(int r) {
      final int n = pb.n;
      final int d = pb.d;
      final int off = r * n;
      final boolean cos = pb.metric == Metric.COSINE;
      final float[] sqf = pb.sqf;
      // Pass 1: the k-th best float ranking value (higher is better: dot, or 2 dot - |b|^2).
      // For k = 1 a single pass also tracks the runner-up: when it is outside the window the
      // float argmax is the only candidate and pass 2 is skipped (the common case).
      float kth;
      float second = Float.NEGATIVE_INFINITY;
      int bestIndex = -1;
      if (k == 1) {
        float best = Float.NEGATIVE_INFINITY;
        if (cos) {
          for (int j = 0; j < n; j++) {
            float v = c[off + j];
            if (v > second) {
              if (v > best) {
                second = best;
                best = v;
                bestIndex = j;
              } else {
                second = v;
              }
            }
          }
        } else {
          for (int j = 0; j < n; j++) {
            float v = 2f * c[off + j] - sqf[j];
            if (v > second) {
              if (v > best) {
                second = best;
                best = v;
                bestIndex = j;
              } else {
                second = v;
              }
            }
          }
        }
        kth = best;
      } else {
        Arrays.fill(topVals, Float.NEGATIVE_INFINITY); // ascending: topVals[0] is the k-th best
        for (int j = 0; j < n; j++) {
          float v = cos ? c[off + j] : 2f * c[off + j] - sqf[j];
          if (v > topVals[0]) {
            int p = 0;
            while (p + 1 < k && topVals[p + 1] < v) {
              topVals[p] = topVals[p + 1];
              p++;
            }
            topVals[p] = v;
          }
        }
        kth = topVals[0];
      }
      // Window: twice a bound on |float ranking value - exact ranking value|.
      double an = Math.sqrt(aa[r]);
      double bn = pb.maxNorm;
      double gamma = (d + 2) * U / (1 - (d + 2) * U);
      double err;
      if (cos) {
        err = gamma * an * bn + 2 * d * 0x1p-53 * an * bn;
      } else {
        err = 2 * gamma * an * bn
            + 2 * U * (2 * an * bn + bn * bn)
            + (d + 4) * 0x1p-52 * (aa[r] + bn * bn + 2 * an * bn);
      }
      double threshold = kth - 2.5 * err - Double.MIN_NORMAL;
      if (k == 1 && bestIndex >= 0 && second < threshold) {
        double dot = exactDot(blk, r * d, pb.data, bestIndex * d, d);
        outIndex[r] = bestIndex;
        outScore[r] = cos ? dot : l2Score(aa[r], pb.sq[bestIndex], dot);
        return;
      }
      // Pass 2: candidates, rescored exactly.
      int m = 0;
      for (int j = 0; j < n; j++) {
        float v = cos ? c[off + j] : 2f * c[off + j] - sqf[j];
        if (v >= threshold) {
          if (m == cand.length) {
            cand = Arrays.copyOf(cand, m * 2);
            candScore = Arrays.copyOf(candScore, m * 2);
          }
          cand[m] = j;
          double dot = exactDot(blk, r * d, pb.data, j * d, d);
          candScore[m] = cos ? dot : l2Score(aa[r], pb.sq[j], dot);
          m++;
        }
      }
      if (m < k) { // non-finite float scores (overflow): rescore every candidate exactly
        m = 0;
        cand = Arrays.copyOf(cand, Math.max(cand.length, n));
        candScore = Arrays.copyOf(candScore, Math.max(candScore.length, n));
        for (int j = 0; j < n; j++) {
          double dot = exactDot(blk, r * d, pb.data, j * d, d);
          cand[m] = j;
          candScore[m++] = cos ? dot : l2Score(aa[r], pb.sq[j], dot);
        }
      }
      if (k == 1) {
        int bi = cand[0];
        double bs = candScore[0];
        for (int q = 1; q < m; q++) { // candidates are in index order: strict improvement only
          double s = candScore[q];
          if (cos ? s > bs : s < bs) {
            bs = s;
            bi = cand[q];
          }
        }
        outIndex[r] = bi;
        outScore[r] = bs;
      } else {
        Integer[] order = new Integer[m];
        for (int q = 0; q < m; q++) {
          order[q] = q;
        }
        Arrays.sort(order, (x, y) -> {
          int cmp = cos
              ? Double.compare(candScore[y], candScore[x])
              : Double.compare(candScore[x], candScore[y]);
          return cmp != 0 ? cmp : Integer.compare(cand[x], cand[y]);
        });
        for (int q = 0; q < k; q++) {
          outIndex[r * k + q] = cand[order[q]];
          outScore[r * k + q] = candScore[order[q]];
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------

  /** Builder; each setter validates at once. Reusable: {@link #build()} snapshots it. */
  public static final class Builder {
    private Metric metric = Metric.COSINE;
    private Backend backend = Backend.AUTO;
    private int threads = Runtime.getRuntime().availableProcessors();
    private int blockRows = 0;
    private long blockBytes = 16L << 20;
    private boolean prenormalised;

    Builder() {}

    /** Internal: cosine on rows the caller already normalised (no renormalisation). */
    Builder prenormalised(boolean p) {
      this.prenormalised = p;
      return this;
    }

    /** The metric (default {@link Metric#COSINE}). */
    public Builder metric(Metric metric) {
      if (metric == null) {
        throw new IllegalArgumentException("metric must not be null");
      }
      this.metric = metric;
      return this;
    }

    /** The backend (default {@link Backend#AUTO}). */
    public Builder backend(Backend backend) {
      if (backend == null) {
        throw new IllegalArgumentException("backend must not be null");
      }
      this.backend = backend;
      return this;
    }

    /** Worker threads, each processing whole blocks (default: available processors). */
    public Builder threads(int threads) {
      if (threads < 1 || threads > 1024) {
        throw new IllegalArgumentException("threads must be in 1..1024, got threads=" + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * Rows of A per block; 0 (the default) picks {@code blockBytes / (4 |B|)} clamped to
     * 64..4096, rounded down to a multiple of 16. Memory per worker is about {@code 2 x blockRows x |B| x 4} bytes.
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
     * Target size in bytes of one block's score matrix when blockRows is 0 (default 16 MiB:
     * on the 2-vCPU AVX-512 VM, 256-1024-row blocks beat 3344-row ones by 10-20 % against
     * |B| = 5000; see docs/clustering-performance.md).
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
