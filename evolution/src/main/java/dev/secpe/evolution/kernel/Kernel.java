package dev.secpe.evolution.kernel;

import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import java.util.stream.IntStream;

/**
 * The engine's view of the clustering module's nearest-neighbour kernel: cosine on unit vectors,
 * over row subsets (one label group at a time), returning indices of the full candidate list.
 * The A side (the private records, up to millions of rows) is handed to the kernel as a {@link
 * RowSource} that reads the selected rows block by block, centring them on the fly where asked:
 * it is never copied whole. The B side (candidates, centres) is small and copied once.
 */
public final class Kernel {

  private static final NearestNeighbours COSINE =
      NearestNeighbours.builder().metric(Metric.COSINE).build();

  private Kernel() {}

  /**
   * The point centred votes are measured from (the run's geometry is {@code CENTRED}; the engine
   * asks for none under plain cosine): the mean of the candidate rows {@code rows} of {@code unit}
   * (synthetic text only, so public), or {@code null} (no centring) when there are no candidates.
   */
  public static float[] voteCentre(EmbeddingMatrix unit, int[] rows) {
    if (rows.length == 0) {
      return null;
    }
    int d = unit.dimension();
    double[] sum = new double[d];
    for (int r : rows) {
      for (int j = 0; j < d; j++) {
        sum[j] += unit.get(r, j);
      }
    }
    float[] mean = new float[d];
    for (int j = 0; j < d; j++) {
      mean[j] = (float) (sum[j] / rows.length);
    }
    // A candidate at the mean (one candidate, or all alike) has no direction after centring: the
    // group then votes by plain cosine. The decision rests on the candidates alone (public), so no
    // private record can switch the geometry of the others' votes.
    for (int r : rows) {
      if (!(distanceSquared(unit, r, mean) > AT_CENTRE)) {
        return null;
      }
    }
    return mean;
  }

  /** Squared distance below which a row counts as at the centre (rows are unit vectors). */
  private static final double AT_CENTRE = 1e-12;

  private static double distanceSquared(EmbeddingMatrix m, int row, float[] centre) {
    double s = 0;
    for (int j = 0; j < centre.length; j++) {
      double v = m.get(row, j) - centre[j];
      s += v * v;
    }
    return s;
  }

  /**
   * Rows {@code rows} of {@code m} (in that order) minus {@code centre}, scaled to unit length; a
   * row at the centre has no direction and keeps its own (so a private record there votes by plain
   * cosine, and only its own vote is affected). With a {@code null} centre, the rows as they are.
   */
  public static EmbeddingMatrix centred(EmbeddingMatrix m, int[] rows, float[] centre) {
    if (centre == null) {
      return rows.length == m.rows() && isIdentity(rows) ? m : m.selectRows(rows);
    }
    int d = m.dimension();
    float[] flat = new float[rows.length * d];
    for (int i = 0; i < rows.length; i++) {
      centreRow(m, rows[i], centre, flat, i * d);
    }
    return EmbeddingMatrix.ofFlat(rows.length, d, flat);
  }

  /** Row {@code row} of {@code m} centred and scaled as {@link #centred} does, into {@code dst}. */
  private static void centreRow(EmbeddingMatrix m, int row, float[] centre, float[] dst, int off) {
    int d = centre.length;
    double norm = 0;
    for (int j = 0; j < d; j++) {
      float v = m.get(row, j) - centre[j];
      dst[off + j] = v;
      norm += (double) v * v;
    }
    if (!(norm > AT_CENTRE)) {
      norm = 0;
      for (int j = 0; j < d; j++) {
        dst[off + j] = m.get(row, j);
        norm += (double) dst[off + j] * dst[off + j];
      }
    }
    if (norm > 0) {
      float inv = (float) (1.0 / Math.sqrt(norm));
      for (int j = 0; j < d; j++) {
        dst[off + j] *= inv;
      }
    }
  }

  /**
   * Rows {@code rows} of {@code m}, in that order, as the kernel's A: each block is read when the
   * kernel asks for it, centred on {@code centre} as {@link #centred} does (as they are when it
   * is null). Nothing is copied up front.
   */
  public static RowSource rows(EmbeddingMatrix m, int[] rows, float[] centre) {
    int d = m.dimension();
    return new RowSource() {
      @Override
      public long rows() {
        return rows.length;
      }

      @Override
      public int dim() {
        return d;
      }

      @Override
      public void read(long first, int count, float[] dst) {
        for (int q = 0; q < count; q++) {
          int row = rows[(int) first + q];
          if (centre == null) {
            m.copyRow(row, dst, q * d);
          } else {
            centreRow(m, row, centre, dst, q * d);
          }
        }
      }
    };
  }

  /**
   * The vote counts of rows {@code aRows} of {@code a} against rows {@code bRows} of {@code b}
   * (indexed like {@code b}): each row counts once for each of its {@code k} nearest, measured
   * after centring both sides on {@code centre} (null: plain cosine).
   */
  static long[] nearestCounts(
      EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, int k, float[] centre) {
    long[] counts = new long[b.rows()];
    if (aRows.length == 0 || bRows.length == 0) {
      return counts;
    }
    RowSource rows = rows(a, aRows, centre);
    EmbeddingMatrix cand = embeddings(centre == null ? b : centred(b, bRows, centre),
        centre == null ? bRows : iota(bRows.length));
    int kk = Math.min(k, bRows.length);
    if (kk == 1) {
      long[] local = COSINE.nearestCounts(rows, cand);
      for (int j = 0; j < local.length; j++) {
        counts[bRows[j]] += local[j];
      }
    } else {
      for (int[] nearest : COSINE.topK(rows, cand, kk).index()) {
        for (int j : nearest) {
          counts[bRows[j]]++;
        }
      }
    }
    return counts;
  }

  /**
   * As {@link #topK(EmbeddingMatrix, int[], EmbeddingMatrix, int[], int)} with both sides centred
   * on {@code centre} first (see {@link #voteCentre}); a {@code null} centre is plain cosine.
   */
  public static int[][] topK(
      EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, int k, float[] centre) {
    if (centre == null) {
      return topK(a, aRows, b, bRows, k);
    }
    if (aRows.length == 0) {
      return new int[0][];
    }
    int[][] local = COSINE.topK(rows(a, aRows, centre),
        embeddings(centred(b, bRows, centre), iota(bRows.length)), Math.min(k, bRows.length))
        .index();
    for (int[] row : local) {
      for (int j = 0; j < row.length; j++) {
        row[j] = bRows[row[j]];
      }
    }
    return local;
  }

  /**
   * As {@link #top1(EmbeddingMatrix, int[], EmbeddingMatrix, int[])} with both sides centred on
   * {@code centre}.
   */
  public static int[] top1(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, float[] centre) {
    if (centre == null) {
      return top1(a, aRows, b, bRows);
    }
    if (aRows.length == 0) {
      return new int[0];
    }
    int[] local = COSINE.top1(rows(a, aRows, centre),
        embeddings(centred(b, bRows, centre), iota(bRows.length))).index();
    for (int i = 0; i < local.length; i++) {
      local[i] = bRows[local[i]];
    }
    return local;
  }

  /** 0, 1, ..., n - 1. */
  public static int[] iota(int n) {
    return IntStream.range(0, n).toArray();
  }

  /**
   * For each row of {@code a} (restricted to {@code aRows}), its k nearest rows of b in {@code
   * bRows}.
   */
  public static int[][] topK(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, int k) {
    if (aRows.length == 0) {
      return new int[0][];
    }
    int kk = Math.min(k, bRows.length);
    int[][] local = COSINE.topK(rows(a, aRows, null), embeddings(b, bRows), kk).index();
    int[][] out = new int[local.length][];
    for (int i = 0; i < local.length; i++) {
      out[i] = new int[local[i].length];
      for (int j = 0; j < local[i].length; j++) {
        out[i][j] = bRows[local[i][j]];
      }
    }
    return out;
  }

  /** For each row of {@code a} in {@code aRows}, its nearest row of b in {@code bRows}. */
  public static int[] top1(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows) {
    if (aRows.length == 0) {
      return new int[0];
    }
    int[] local = COSINE.top1(rows(a, aRows, null), embeddings(b, bRows)).index();
    int[] out = new int[local.length];
    for (int i = 0; i < local.length; i++) {
      out[i] = bRows[local[i]];
    }
    return out;
  }

  /** Rows {@code rows} of {@code m} (m itself when they are all of its rows, in order). */
  public static EmbeddingMatrix embeddings(EmbeddingMatrix m, int[] rows) {
    return rows.length == m.rows() && isIdentity(rows) ? m : m.selectRows(rows);
  }

  private static boolean isIdentity(int[] rows) {
    for (int i = 0; i < rows.length; i++) {
      if (rows[i] != i) {
        return false;
      }
    }
    return true;
  }

  /**
   * The vote counts of rows {@code rows} of {@code priv} (unit) against {@code candidates}: one
   * streaming kernel call, shared with other stores so that every store counts the same way.
   */
  public static long[] nearestCounts(EmbeddingMatrix priv, int[] rows, EmbeddingMatrix candidates, float[] centre, int k) {
    return nearestCounts(priv, rows, candidates, iota(candidates.rows()), k, centre);
  }
}
