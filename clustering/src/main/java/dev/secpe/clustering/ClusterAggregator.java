package dev.secpe.clustering;

import dev.secpe.core.EmbeddingMatrix;
import java.util.stream.IntStream;

/**
 * Assigns private rows to their nearest public centre after clipping them, and aggregates them
 * ({@link ClusterAggregate}): step 3 of SecPE's secret clustering. {@link SecretClustering} uses
 * it on the sampled rows of one machine; a distributed store runs it on each partition's sampled
 * rows and merges the aggregates, which gives exactly the same result.
 *
 * <p>Under {@link Metric#COSINE} rows are normalised (R = 1); under {@link Metric#L2} they are
 * clipped to the radius R. Centres are normalised under cosine, as in {@link SecretClustering}.
 * Immutable and thread-safe.
 */
public final class ClusterAggregator {

  private final Metric metric;
  private final float[] centres;
  private final int k;
  private final int d;
  private final double radius;
  private final NearestNeighbours kernel;

  private ClusterAggregator(Metric metric, Embeddings centres, double radius, Backend backend, int threads) {
    this.metric = metric;
    this.k = Math.toIntExact(centres.rows());
    this.d = centres.dim();
    this.centres = metric == Metric.COSINE
        ? NearestNeighbours.normalisedCopy("publicCentres", centres.data(), k, d, 0)
        : centres.data();
    this.radius = metric == Metric.COSINE ? 1.0 : radius;
    this.kernel = NearestNeighbours.builder().metric(metric).prenormalised(true)
        .backend(backend).threads(threads).build();
  }

  /**
   * An aggregator over {@code centres} under {@code metric}; {@code radius} is the clipping radius
   * R under L2 (ignored under cosine, where R = 1).
   *
   * @throws IllegalArgumentException if an argument is null, or R is not positive and finite
   *     under L2
   */
  public static ClusterAggregator of(Metric metric, EmbeddingMatrix centres, double radius) {
    return of(metric, centres, radius, Backend.AUTO, Runtime.getRuntime().availableProcessors());
  }

  /** As {@link #of(Metric, EmbeddingMatrix, double)}, with the kernel's backend and threads. */
  public static ClusterAggregator of(
      Metric metric, EmbeddingMatrix centres, double radius, Backend backend, int threads) {
    return of(metric, centres == null ? null : Embeddings.of("centres", centres), radius, backend, threads);
  }

  static ClusterAggregator of(
      Metric metric, Embeddings centres, double radius, Backend backend, int threads) {
    if (metric == null || centres == null || backend == null) {
      throw new IllegalArgumentException("metric, centres and backend must not be null");
    }
    if (metric == Metric.L2 && !(radius > 0 && radius < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("radius must be positive and finite under L2, got radius=" + radius);
    }
    Require.threads(threads);
    return new ClusterAggregator(metric, centres, radius, backend, threads);
  }

  /** The number of centres. */
  public int centres() {
    return k;
  }

  /** The normalised (cosine) or given (L2) centres, row-major (not a copy: do not modify). */
  float[] centreData() {
    return centres;
  }

  /** R: 1 under cosine, the clipping radius under L2. */
  public double radius() {
    return radius;
  }

  /**
   * Clips every row of {@code rows}, assigns it to its nearest centre and aggregates.
   *
   * @throws IllegalArgumentException if the dimension differs from the centres', or a row holds a
   *     NaN, an infinity or (cosine) is a zero vector
   */
  public ClusterAggregate aggregate(RowSource rows) {
    if (rows.rows() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("at most 2^31 - 1 rows per aggregate, got " + rows.rows());
    }
    int m = (int) rows.rows();
    return aggregate(rows, IntStream.range(0, m).toArray(), m);
  }

  /**
   * The centre each row of {@code rows} is assigned to, clipped as {@link #aggregate} clips it and
   * by the same kernel and tie rule: row i is counted in {@code aggregate(rows).count(nearest(rows)[i])}.
   * A distributed store gives each record's centre this way, partition by partition, with the same
   * result as on one machine.
   *
   * @throws IllegalArgumentException as {@link #aggregate}
   */
  public int[] nearest(RowSource rows) {
    if (rows.rows() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("at most 2^31 - 1 rows, got " + rows.rows());
    }
    if (rows.dim() != d) {
      throw new IllegalArgumentException(
          "rows.dim must equal the centres' dim, got rows.dim=" + rows.dim() + " centres.dim=" + d);
    }
    int m = (int) rows.rows();
    int[] out = new int[m];
    if (m > 0) {
      RowSource clipped = new ClippedSample(rows, IntStream.range(0, m).toArray(), m, metric, radius);
      kernel.top1WithRows(clipped, Embeddings.wrapTrusted(k, d, centres),
          (first, count, data, index, score) -> System.arraycopy(index, 0, out, (int) first, count));
    }
    return out;
  }

  /** Aggregates rows {@code which[0..m)} of {@code src} (ascending); errors name the row of src. */
  ClusterAggregate aggregate(RowSource src, int[] which, int m) {
    if (src.dim() != d) {
      throw new IllegalArgumentException(
          "privateEmbeddings.dim must equal the public centres' dim, got privateEmbeddings.dim="
              + src.dim() + " centres.dim=" + d);
    }
    ClusterAggregate out = new ClusterAggregate(k, d);
    if (m > 0) {
      RowSource clipped = new ClippedSample(src, which, m, metric, radius);
      kernel.top1WithRows(clipped, Embeddings.wrapTrusted(k, d, centres),
          (first, count, data, index, score) -> {
            for (int r = 0; r < count; r++) {
              out.add(index[r], data, r * d);
            }
          });
    }
    return out;
  }

  /** The sampled rows of the private source, clipped to R (L2) or normalised (cosine). */
  private static final class ClippedSample implements RowSource {
    private final RowSource src;
    private final int[] rows;
    private final int m;
    private final Metric metric;
    private final double radius;
    private final int d;

    ClippedSample(RowSource src, int[] rows, int m, Metric metric, double radius) {
      this.src = src;
      this.rows = rows;
      this.m = m;
      this.metric = metric;
      this.radius = radius;
      this.d = src.dim();
    }

    @Override
    public long rows() {
      return m;
    }

    @Override
    public int dim() {
      return d;
    }

    @Override
    public void read(long first, int count, float[] dst) {
      // Consecutive sampled records are read with one call (all of them when every rho_i = 1).
      int r = 0;
      while (r < count) {
        int start = rows[(int) first + r];
        int len = 1;
        while (r + len < count && rows[(int) first + r + len] == start + len) {
          len++;
        }
        float[] tmp = new float[len * d];
        src.read(start, len, tmp);
        System.arraycopy(tmp, 0, dst, r * d, len * d);
        for (int q = 0; q < len; q++) {
          clip(dst, (r + q) * d, start + q);
        }
        r += len;
      }
    }

    private void clip(float[] x, int off, long rec) {
      double s = 0;
      for (int j = 0; j < d; j++) {
        float v = x[off + j];
        if (!Float.isFinite(v)) {
          throw new IllegalArgumentException(
              "privateEmbeddings must be finite, got privateEmbeddings[" + rec + "][" + j
                  + "]=" + v);
        }
        s += (double) v * v;
      }
      double norm = Math.sqrt(s);
      double scale;
      if (metric == Metric.COSINE) {
        if (!(norm > 0)) {
          throw new IllegalArgumentException(
              "privateEmbeddings rows must be non-zero under cosine, got privateEmbeddings["
                  + rec + "] = zero vector");
        }
        scale = 1.0 / norm;
      } else {
        scale = norm > radius ? radius / norm : 1.0;
      }
      if (scale != 1.0) {
        for (int j = 0; j < d; j++) {
          x[off + j] = (float) (x[off + j] * scale);
        }
        // Rounding to float may leave the norm an ulp above the bound: shrink until inside.
        shrinkIntoBall(x, off, d, metric == Metric.COSINE ? 1.0 : radius);
      }
    }

    /** Makes sure the float row's exact norm is at most {@code bound}. */
    private static void shrinkIntoBall(float[] x, int off, int d, double bound) {
      for (int attempt = 0; attempt < 8; attempt++) {
        double s = NearestNeighbours.exactDot(x, off, x, off, d);
        if (Math.sqrt(s) <= bound) {
          return;
        }
        for (int j = 0; j < d; j++) {
          x[off + j] = x[off + j] * (1f - 0x1p-23f);
        }
      }
    }
  }

}
