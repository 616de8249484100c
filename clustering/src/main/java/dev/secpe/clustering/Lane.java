package dev.secpe.clustering;

import dev.secpe.clustering.internal.KernelProbe.Phase;
import dev.secpe.clustering.internal.KernelProbe;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;

/**
 * One lane of a kernel call: takes one block of A at a time through read and preparation, then
 * for each column chunk of B a GEMM tile and its arg-max scan (fused: the tile is scanned right
 * after it is computed), then the exact re-check. The reading and preparation, the scans and the
 * re-check of a block are split by rows over {@code parts} threads (the lane's own and helpers
 * from the kernel's pool); several lanes may run side by side.
 *
 * <p><b>The shortlist.</b> Per row the scan keeps the running k-th best float ranking value
 * {@code kth} and the list of every column seen so far whose ranking value is within the window
 * {@code 2.5 err + MIN_NORMAL} of it ({@code err}: the bound on the float GEMM's error, see
 * {@link NearestNeighbours}). A column outside the window of the running value is outside the
 * window of the final one ({@code kth} only grows), so it can never win and is dropped for good;
 * in the common case a tile's maximum is below the window and the scan of that row is one
 * (vectorisable) pass for its two largest values; when only the maximum is within the window it
 * is listed without a second pass. At the end every listed column is rescored exactly and the best exact score
 * wins, the lowest index among equals. A row whose float scores could overflow is rescored
 * exactly against every column instead.
 *
 * <p><b>Column-major tiles.</b> Where the scorer computes the tile transposed ({@link
 * BlockScorer#columnMajor()}: OpenBLAS with the in-place Vector API scan), one pass over the
 * tile's columns gives every row's maximum, runner-up and first position of the maximum at once
 * ({@link RowScan#columnsTop2}); the per-row decisions above are then the same.
 */
final class Lane implements AutoCloseable {

  /** Rows per part below which a phase runs on the lane's own thread only. */
  private static final int MIN_ROWS_PER_PART = 16;

  private final NearestNeighbours.Prepared pb;
  private final RowSource a;
  private final int k;
  private final boolean scores;
  private final BlockScorer scorer;
  private final Tiling tiling;
  private final RowScan scan;
  private final int parts;
  private final ExecutorService pool;
  private final KernelProbe probe;
  private final boolean l2;
  private final boolean normalise;
  private final int d;
  private final double gamma;
  private final double normalisedNormBound;

  /** The block's rows as read. */
  final float[] raw;
  /** The block's rows as scored (normalised under cosine unless prenormalised; else raw). */
  private final float[] blk;
  private final double[] aa;
  private final double[] err;
  private final byte[] bad;
  private final boolean[] exactAll;
  private final float[] kth;
  private final int[] candLen;
  private final int[][] candIdx;
  private final float[][] candVal;
  /** A column-major tile's per-row maximum, runner-up and first position of the maximum. */
  private final float[] colMax;
  private final float[] colSecond;
  private final int[] colPos;
  final int[] outIndex;
  final double[] outScore;
  private final Scratch[] scratch;
  private int count;
  private long first;

  /** Per-part working memory. */
  private static final class Scratch {
    final float[] row;
    final int[] idx;
    final float[] val;
    int[] rr;
    int[] jj;
    double[] dd;
    final float[] top = new float[2];
    float[] sortTmp = new float[16];
    int[] order = new int[16];

    Scratch(int cols, int rows) {
      row = new float[cols];
      idx = new int[cols];
      val = new float[cols];
      rr = new int[Math.max(rows, 16)];
      jj = new int[Math.max(rows, 16)];
      dd = new double[Math.max(rows, 16)];
    }

    private float[] rows = new float[0];

    /** A buffer for {@code n} rows of dim d (grown on demand). */
    float[] rows(int n, int d) {
      if (rows.length < n * d) {
        rows = new float[n * d];
      }
      return rows;
    }

    void ensure(int m) {
      if (rr.length < m) {
        int c = Math.max(m, rr.length * 2);
        rr = new int[c];
        jj = new int[c];
        dd = new double[c];
      }
      if (order.length < m) {
        order = new int[Math.max(m, order.length * 2)];
      }
    }
  }

  /** A phase over rows {@code [r0, r1)} of the block, as part {@code p}. */
  @FunctionalInterface
  private interface RowRange {
    void run(int p, int r0, int r1);
  }

  /**
   * @param scores whether the exact score of a winner that is unique on the float scores is
   *     wanted (else it is left NaN: the index is decided without it)
   */
  Lane(NearestNeighbours.Prepared pb, RowSource a, int k, boolean scores, BlockScorer scorer,
      Tiling tiling, RowScan scan, int parts, ExecutorService pool, KernelProbe probe) {
    this.pb = pb;
    this.a = a;
    this.k = k;
    this.scores = scores;
    this.scorer = scorer;
    this.tiling = tiling;
    this.scan = scan;
    this.parts = parts;
    this.pool = pool;
    this.probe = probe;
    this.l2 = pb.metric == Metric.L2;
    this.normalise = pb.metric == Metric.COSINE && !pb.prenormalised;
    this.d = pb.d;
    this.gamma = (d + 2) * NearestNeighbours.U / (1 - (d + 2) * NearestNeighbours.U);
    this.normalisedNormBound = 1 + 0x1p-23 + (d + 8) * 0x1p-52;
    int br = tiling.blockRows();
    this.raw = new float[br * d];
    this.blk = normalise ? new float[br * d] : raw;
    this.aa = new double[br];
    this.err = new double[br];
    this.bad = new byte[br];
    this.exactAll = new boolean[br];
    this.kth = new float[br];
    this.candLen = new int[br];
    this.candIdx = new int[br][];
    this.candVal = new float[br][];
    for (int r = 0; r < br; r++) {
      candIdx[r] = new int[Math.max(4, k + 2)];
      candVal[r] = new float[Math.max(4, k + 2)];
    }
    this.colMax = new float[br];
    this.colSecond = new float[br];
    this.colPos = new int[br];
    this.outIndex = new int[br * k];
    this.outScore = new double[br * k];
    this.scratch = new Scratch[parts];
    for (int p = 0; p < parts; p++) {
      scratch[p] = new Scratch(tiling.chunkCols(), br);
    }
  }

  /** Processes rows {@code [first, first + count)} of A; results land in outIndex/outScore. */
  void process(long first, int count) {
    this.first = first;
    this.count = count;
    long t0 = System.nanoTime();
    parallel(this::prepare);
    checkRows();
    scorer.load(blk, count);
    long t1 = System.nanoTime();
    long gemm = 0;
    long scanned = 0;
    for (int c = 0; c < tiling.chunks(); c++) {
      long g0 = System.nanoTime();
      scorer.multiply(c);
      long g1 = System.nanoTime();
      final int chunk = c;
      parallel((p, r0, r1) -> scan(chunk, p, r0, r1));
      long g2 = System.nanoTime();
      gemm += g1 - g0;
      scanned += g2 - g1;
    }
    long t2 = System.nanoTime();
    parallel(this::rescore);
    long t3 = System.nanoTime();
    if (probe != null) {
      probe.add(Phase.PREPARE, t1 - t0);
      probe.add(Phase.GEMM, gemm);
      probe.add(Phase.SCAN, scanned);
      probe.add(Phase.RESCORE, t3 - t2);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private void parallel(RowRange phase) {
    int p = Math.max(1, Math.min(parts, count / MIN_ROWS_PER_PART));
    Forks.run(pool, p, q -> phase.run(q, (int) ((long) count * q / p),
        (int) ((long) count * (q + 1) / p)));
  }

  /** Reading, norms, finiteness, normalisation and the error window of rows {@code [r0, r1)}. */
  private void prepare(int p, int r0, int r1) {
    // RowSource allows concurrent reads of disjoint ranges: each part reads its own rows (a
    // streaming source may compute them: that work is split too).
    if (r0 == 0) {
      a.read(first, r1, raw);
    } else {
      float[] buf = scratch[p].rows(r1 - r0, d);
      a.read(first + r0, r1 - r0, buf);
      System.arraycopy(buf, 0, raw, r0 * d, (r1 - r0) * d);
    }
    ExactDots.selfDots(raw, r0, r1, d, aa, r0); // |a_r|^2 exactly; not finite iff a value is not
    for (int r = r0; r < r1; r++) {
      double s = aa[r];
      if (!Double.isFinite(s)) {
        bad[r] = 1;
        continue;
      }
      if (normalise) {
        if (!(s > 0)) {
          bad[r] = 2;
          continue;
        }
        double inv = 1.0 / Math.sqrt(s);
        int o = r * d;
        for (int i = 0; i < d; i++) {
          blk[o + i] = (float) (raw[o + i] * inv);
        }
      }
      bad[r] = 0;
    }
    double bn = pb.maxNorm;
    for (int r = r0; r < r1; r++) {
      // A row normalised here has |a| <= 1 + 2^-24 (float rounding of each a_i / |a|) + about
      // (d + 4) 2^-53 (the double sum and square root): a bound, not a sum, is all the window
      // needs under cosine, and it saves a second exact pass over the row.
      double an = normalise ? normalisedNormBound : Math.sqrt(aa[r]);
      double e;
      if (!l2) {
        e = gamma * an * bn + 2 * d * 0x1p-53 * an * bn;
      } else {
        e = 2 * gamma * an * bn
            + 2 * NearestNeighbours.U * (2 * an * bn + bn * bn)
            + (d + 4) * 0x1p-52 * (aa[r] + bn * bn + 2 * an * bn);
      }
      err[r] = e;
      // Float scores are bounded by (1 + gamma) |a| max|b| in any summation order (Cauchy-Schwarz
      // on every partial sum), so below 2^100 they cannot overflow and are never NaN or infinite;
      // a row beyond it (absurd for embeddings) is rescored exactly against every column.
      exactAll[r] = !(an * bn <= 0x1p100) || !(bn * bn <= 0x1p100) || !Double.isFinite(e);
      kth[r] = Float.NEGATIVE_INFINITY;
      candLen[r] = 0;
    }
  }

  /** Throws for the block's first row that is not finite, then for its first zero row (cosine). */
  private void checkRows() {
    for (int r = 0; r < count; r++) {
      if (bad[r] == 1) {
        for (int i = r * d; i < (r + 1) * d; i++) {
          if (!Float.isFinite(raw[i])) {
            throw new IllegalArgumentException(
                "a must be finite, got a[" + (first + r) + "][" + (i - r * d) + "]=" + raw[i]);
          }
        }
      }
    }
    for (int r = 0; r < count; r++) {
      if (bad[r] == 2) {
        throw new IllegalArgumentException(
            "a rows must be non-zero under cosine, got a[" + (first + r) + "] = zero vector");
      }
    }
  }

  /** The lowest float ranking value that may still matter when the k-th best is {@code x}. */
  private double threshold(int r, float x) {
    return x - 2.5 * err[r] - Double.MIN_NORMAL;
  }

  /** Scans rows {@code [r0, r1)} of the current tile (chunk {@code c}). */
  private void scan(int c, int p, int r0, int r1) {
    Scratch sc = scratch[p];
    int w = tiling.width(c);
    int j0 = tiling.start(c);
    float[] sqf = pb.sqf;
    boolean fused = scorer.fusedTop2();
    boolean columns = fused || scorer.columnMajor();
    ByteBuffer tileBytes = scan.readsBuffers() && !columns ? scorer.tile() : null;
    if (fused) { // scanned where the tile is (a GPU): its rows' top two only
      scorer.top2(r0, r1, colMax, colSecond, colPos);
    } else if (columns) { // one front-to-back pass for all the part's rows, positions included
      scan.columnsTop2(scorer.tile(), count, r0, r1, w, l2, sqf, j0, colMax, colSecond, colPos);
    }
    for (int r = r0; r < r1; r++) {
      if (exactAll[r]) {
        continue;
      }
      float[] src = null;
      int off = 0;
      int byteOff = r * w * Float.BYTES;
      int pos;
      if (columns) {
        sc.top[0] = colMax[r];
        sc.top[1] = colSecond[r];
        pos = colPos[r];
      } else if (tileBytes != null) {
        pos = scan.top2(tileBytes, byteOff, w, l2, sqf, j0, sc.top); // in place, no copy
      } else {
        src = scorer.row(r, sc.row);
        off = scorer.rowOffset(r);
        pos = scan.top2(src, off, w, l2, sqf, j0, sc.top);
      }
      float sb = sc.top[0];
      double thr;
      if (k == 1) {
        thr = threshold(r, Math.max(kth[r], sb));
      } else {
        thr = candLen[r] >= k ? threshold(r, kth[r]) : Double.NEGATIVE_INFINITY;
      }
      if (sb < thr) {
        continue; // the common case: nothing in this tile's row can matter
      }
      int m;
      if (k == 1 && sc.top[1] < thr) { // only the tile's maximum matters: no collect pass
        if (pos < 0) {
          if (tileBytes == null && src == null) { // a column-major row of -infinity only
            src = scorer.row(r, sc.row);
            off = scorer.rowOffset(r);
          }
          pos = tileBytes != null ? scan.indexOf(tileBytes, byteOff, w, l2, sqf, j0, sb)
              : scan.indexOf(src, off, w, l2, sqf, j0, sb);
        }
        sc.idx[0] = j0 + pos;
        sc.val[0] = sb;
        m = 1;
      } else {
        if (src == null) {
          src = scorer.row(r, sc.row);
          off = scorer.rowOffset(r);
        }
        m = scan.collect(src, off, w, l2, sqf, j0, thr, sc.idx, sc.val, 0);
      }
      append(r, sc.idx, sc.val, m);
      if (k == 1) {
        kth[r] = Math.max(kth[r], sb);
      } else if (candLen[r] >= k) {
        kth[r] = kthLargest(r, sc);
      } else {
        continue;
      }
      prune(r, threshold(r, kth[r]));
    }
  }

  private void append(int r, int[] idx, float[] val, int m) {
    int len = candLen[r];
    if (candIdx[r].length < len + m) {
      int cap = Math.max(len + m, candIdx[r].length * 2);
      candIdx[r] = Arrays.copyOf(candIdx[r], cap);
      candVal[r] = Arrays.copyOf(candVal[r], cap);
    }
    System.arraycopy(idx, 0, candIdx[r], len, m);
    System.arraycopy(val, 0, candVal[r], len, m);
    candLen[r] = len + m;
  }

  /** Keeps the listed columns whose ranking value reaches {@code thr}, in order. */
  private void prune(int r, double thr) {
    int[] ci = candIdx[r];
    float[] cv = candVal[r];
    int len = candLen[r];
    int out = 0;
    for (int q = 0; q < len; q++) {
      if (cv[q] >= thr) {
        ci[out] = ci[q];
        cv[out++] = cv[q];
      }
    }
    candLen[r] = out;
  }

  private float kthLargest(int r, Scratch sc) {
    int len = candLen[r];
    if (sc.sortTmp.length < len) {
      sc.sortTmp = new float[Math.max(len, sc.sortTmp.length * 2)];
    }
    System.arraycopy(candVal[r], 0, sc.sortTmp, 0, len);
    Arrays.sort(sc.sortTmp, 0, len);
    return sc.sortTmp[len - k];
  }

  /** The exact re-check of rows {@code [r0, r1)}: listed columns rescored, best (score, index) win. */
  private void rescore(int p, int r0, int r1) {
    Scratch sc = scratch[p];
    int single = 0;
    for (int r = r0; r < r1; r++) {
      if (k == 1 && !exactAll[r] && candLen[r] == 1) {
        sc.rr[single] = r; // the common case, batched below
        sc.jj[single++] = candIdx[r][0];
      }
    }
    if (scores) {
      ExactDots.dots(blk, sc.rr, pb.data, sc.jj, single, d, sc.dd);
    }
    for (int q = 0; q < single; q++) {
      int r = sc.rr[q];
      int j = sc.jj[q];
      outIndex[r] = j;
      outScore[r] = !scores ? Double.NaN
          : l2 ? NearestNeighbours.l2Score(aa[r], pb.sq[j], sc.dd[q]) : sc.dd[q];
    }
    for (int r = r0; r < r1; r++) {
      if (!(k == 1 && !exactAll[r] && candLen[r] == 1)) {
        rescoreList(r, sc);
      }
    }
  }

  /** Rescores row r's list (every column of B when its float scores could not shortlist). */
  private void rescoreList(int r, Scratch sc) {
    boolean all = exactAll[r] || candLen[r] < k;
    int m = all ? pb.n : candLen[r];
    sc.ensure(m);
    for (int q = 0; q < m; q++) {
      sc.rr[q] = r;
      sc.jj[q] = all ? q : candIdx[r][q];
    }
    ExactDots.dots(blk, sc.rr, pb.data, sc.jj, m, d, sc.dd);
    double[] s = sc.dd;
    int[] j = sc.jj;
    if (l2) {
      for (int q = 0; q < m; q++) {
        s[q] = NearestNeighbours.l2Score(aa[r], pb.sq[j[q]], s[q]);
      }
    }
    // Order (best score, then lowest index): the list is in increasing index order, so a stable
    // insertion of each entry behind its equals keeps the lowest index first.
    int[] ord = sc.order;
    int top = 0;
    for (int q = 0; q < m; q++) {
      double v = s[q];
      if (top == k && !better(v, s[ord[top - 1]])) {
        continue;
      }
      int pos = top < k ? top++ : top - 1;
      while (pos > 0 && better(v, s[ord[pos - 1]])) {
        ord[pos] = ord[pos - 1];
        pos--;
      }
      ord[pos] = q;
    }
    for (int t = 0; t < k; t++) {
      outIndex[r * k + t] = j[ord[t]];
      outScore[r * k + t] = s[ord[t]];
    }
  }

  private boolean better(double x, double y) {
    return l2 ? x < y : x > y;
  }

  @Override
  public void close() {
    scorer.close();
  }
}
