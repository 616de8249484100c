package dev.secpe.evolution;

import dev.secpe.clustering.Embeddings;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.core.EmbeddingMatrix;

/**
 * The engine's view of the clustering module's nearest-neighbour kernel: cosine on unit vectors,
 * over row subsets (one label group at a time), returning indices of the full candidate list.
 */
final class Kernel {

  private static final NearestNeighbours COSINE =
      NearestNeighbours.builder().metric(Metric.COSINE).build();

  private Kernel() {}

  /** For each row of {@code a} (restricted to {@code aRows}), its k nearest rows of b in {@code bRows}. */
  static int[][] topK(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows, int k) {
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
  static int[] top1(EmbeddingMatrix a, int[] aRows, EmbeddingMatrix b, int[] bRows) {
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

  static Embeddings embeddings(EmbeddingMatrix m, int[] rows) {
    EmbeddingMatrix sub = rows.length == m.rows() && isIdentity(rows) ? m : m.selectRows(rows);
    return Embeddings.ofFlat(sub.rows(), sub.dimension(), sub.toFlatArray());
  }

  static Embeddings embeddings(EmbeddingMatrix m) {
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
}
