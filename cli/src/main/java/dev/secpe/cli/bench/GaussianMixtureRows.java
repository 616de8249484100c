package dev.secpe.cli.bench;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.clustering.RowSource;
import java.util.SplittableRandom;

/**
 * Synthetic embeddings: a mixture of {@code components} Gaussians with unit-norm means in
 * {@code dim} dimensions and per-coordinate standard deviation {@code spread / sqrt(dim)}. The
 * noise of row i is one of 8192 pre-drawn Gaussian vectors, cyclically shifted, both chosen by
 * a hash of {@code (seed, i)}: row i depends on {@code (seed, i)} alone, so any block can be produced on demand, in any
 * order, from any thread: a 1.9 M x 384 matrix streams in bounded memory.
 */
public final class GaussianMixtureRows implements RowSource {

  private final long rows;
  private final int dim;
  private final long seed;
  private final float[] means;
  private final int components;
  private final double sd;
  private static final int POOL = 8192;
  private final float[] pool;

  /**
   * @param rows number of rows
   * @param dim dimension
   * @param components number of mixture components (shared by every source with the same
   *     {@code meansSeed})
   * @param spread noise radius relative to the unit-norm means
   * @param meansSeed seed of the component means
   * @param seed seed of the rows
   */
  public GaussianMixtureRows(long rows, int dim, int components, double spread, long meansSeed,
      long seed) {
    if (rows < 1 || dim < 1 || components < 1 || !(spread >= 0)) {
      throw new IllegalArgumentException("bad mixture: rows=" + rows + " dim=" + dim
          + " components=" + components + " spread=" + spread);
    }
    this.rows = rows;
    this.dim = dim;
    this.seed = seed;
    this.components = components;
    this.sd = spread / Math.sqrt(dim);
    this.means = new float[components * dim];
    this.pool = new float[POOL * dim];
    SplittableRandom pr = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int i = 0; i < pool.length; i++) {
      pool[i] = (float) (gaussian(pr) * sd);
    }
    SplittableRandom r = new SplittableRandom(meansSeed);
    for (int c = 0; c < components; c++) {
      double s = 0;
      for (int j = 0; j < dim; j++) {
        double v = gaussian(r);
        means[c * dim + j] = (float) v;
        s += v * v;
      }
      double inv = 1 / Math.sqrt(s);
      for (int j = 0; j < dim; j++) {
        means[c * dim + j] *= (float) inv;
      }
    }
  }

  static double gaussian(SplittableRandom r) {
    double u1 = r.nextDouble();
    double u2 = r.nextDouble();
    return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public int dim() {
    return dim;
  }

  @Override
  public void read(long first, int count, float[] dst) {
    for (int r = 0; r < count; r++) {
      long h = mix(seed * 0x9E3779B97F4A7C15L + first + r);
      int c = (int) Long.remainderUnsigned(h, components);
      long h2 = mix(h);
      int p = (int) Long.remainderUnsigned(h2, POOL);
      int shift = (int) Long.remainderUnsigned(mix(h2), dim);
      int o = r * dim;
      int mo = c * dim;
      int po = p * dim;
      // mean + a pooled N(0, sd^2 I) vector, cyclically shifted: cheap enough that generating
      // the data does not dominate the kernel being measured.
      int head = dim - shift;
      for (int j = 0; j < head; j++) {
        dst[o + j] = means[mo + j] + pool[po + shift + j];
      }
      for (int j = head; j < dim; j++) {
        dst[o + j] = means[mo + j] + pool[po + j - head];
      }
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The first {@code n} rows in memory. */
  public EmbeddingMatrix materialise(int n) {
    float[] flat = new float[Math.multiplyExact(n, dim)];
    read(0, n, flat);
    return EmbeddingMatrix.ofFlat(n, dim, flat);
  }
}
