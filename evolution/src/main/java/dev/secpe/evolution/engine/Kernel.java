package dev.secpe.evolution.engine;

import dev.secpe.evolution.VoteGeometry;

import dev.secpe.clustering.Embeddings;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.core.EmbeddingMatrix;

/**
 * The engine's view of the clustering module's nearest-neighbour kernel: cosine on unit vectors,
 * over row subsets (one label group at a time), returning indices of the full candidate list.
 */
public final class Kernel {

  private static final NearestNeighbours COSINE =
      NearestNeighbours.builder().metric(Metric.COSINE).build();

  private Kernel() {}

  /**
   * The point votes are measured from under {@code geometry}: the mean of the candidate rows
   * {@code rows} of {@code unit} for {@link VoteGeometry#CENTRED} (synthetic text only, so public),
   * {@code null} (no centring) for {@link VoteGeometry#COSINE} or when there are no candidates.
   */
  public static float[] voteCentre(VoteGeometry geometry, EmbeddingMatrix unit, int[] rows) {
    if (geometry == VoteGeometry.COSINE || rows.length == 0) {
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
      double norm = 0;
      for (int j = 0; j < d; j++) {
        float v = m.get(rows[i], j) - centre[j];
        flat[i * d + j] = v;
        norm += (double) v * v;
      }
      if (!(norm > AT_CENTRE)) {
        norm = 0;
        for (int j = 0; j < d; j++) {
          flat[i * d + j] = m.get(rows[i], j);
          norm += (double) flat[i * d + j] * flat[i * d + j];
        }
      }
      if (norm > 0) {
        float inv = (float) (1.0 / Math.sqrt(norm));
        for (int j = 0; j < d; j++) {
          flat[i * d + j] *= inv;
        }
      }
    }
    return EmbeddingMatrix.ofFlat(rows.length, d, flat);
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
    int[][] local = topK(centred(a, aRows, centre), iota(aRows.length), centred(b, bRows, centre),
        iota(bRows.length), k);
    for (int[] row : local) {
      for (int j = 0; j < row.length; j++) {
        row[j] = bRows[row[j]];
      }
    }
    return local;
  }

  /** As {@link #top1(EmbeddingMatrix, int[], EmbeddingMatrix, int[])} with both sides centred on {@code centre}. */
  public static int[] top1(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, float[] centre) {
    if (centre == null) {
      return top1(a, aRows, b, bRows);
    }
    int[] local = top1(centred(a, aRows, centre), iota(aRows.length), centred(b, bRows, centre), iota(bRows.length));
    for (int i = 0; i < local.length; i++) {
      local[i] = bRows[local[i]];
    }
    return local;
  }

  public static int[] iota(int n) {
    return java.util.stream.IntStream.range(0, n).toArray();
  }

  /** For each row of {@code a} (restricted to {@code aRows}), its k nearest rows of b in {@code bRows}. */
  public static int[][] topK(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, int k) {
    if (aRows.length == 0) {
      return new int[0][];
    }
    int kk = Math.min(k, bRows.length);
    int[][] local = COSINE.topK(embeddings(a, aRows), embeddings(b, bRows), kk).index();
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
    int[] local = COSINE.top1(embeddings(a, aRows), embeddings(b, bRows)).index();
    int[] out = new int[local.length];
    for (int i = 0; i < local.length; i++) {
      out[i] = bRows[local[i]];
    }
    return out;
  }

  public static Embeddings embeddings(EmbeddingMatrix m, int[] rows) {
    EmbeddingMatrix sub = rows.length == m.rows() && isIdentity(rows) ? m : m.selectRows(rows);
    return Embeddings.ofFlat(sub.rows(), sub.dimension(), sub.toFlatArray());
  }

  public static Embeddings embeddings(EmbeddingMatrix m) {
    return Embeddings.ofFlat(m.rows(), m.dimension(), m.toFlatArray());
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
   * kernel call, shared with other stores so that every store counts the same way.
   */
  public static long[] nearestCounts(EmbeddingMatrix priv, int[] rows, EmbeddingMatrix candidates, float[] centre, int k) {
    long[] counts = new long[candidates.rows()];
    if (rows.length == 0 || candidates.rows() == 0) {
      return counts;
    }
    int[] cand = iota(candidates.rows());
    for (int[] nearest : topK(priv, rows, candidates, cand, k, centre)) {
      for (int c : nearest) {
        counts[c]++;
      }
    }
    return counts;
  }

}
