package dev.secpe.clustering.bench;

import dev.secpe.clustering.Embeddings;
import dev.secpe.clustering.RowSource;
import java.util.SplittableRandom;

/**
 * Synthetic embeddings: a mixture of {@code components} Gaussians with unit-norm means in
 * {@code dim} dimensions and per-coordinate standard deviation {@code spread / sqrt(dim)}. Row i
 * is generated from {@code (seed, i)} alone, so any block can be produced on demand, in any
 * order, from any thread: a 1.9 M x 384 matrix streams in bounded memory.
 */
public final class GaussianMixtureRows implements RowSource {

  private final long rows;
  private final int dim;
  private final long seed;
  private final float[] means;
  private final int components;
  private final double sd;

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
      long i = first + r;
      SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
      int c = rnd.nextInt(components);
      int o = r * dim;
      for (int j = 0; j < dim; j += 2) {
        // Two normals per Box-Muller pair.
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble();
        double rad = Math.sqrt(-2 * Math.log1p(-u1)) * sd;
        double t = 2 * Math.PI * u2;
        dst[o + j] = (float) (means[c * dim + j] + rad * Math.cos(t));
        if (j + 1 < dim) {
          dst[o + j + 1] = (float) (means[c * dim + j + 1] + rad * Math.sin(t));
        }
      }
    }
  }

  /** The first {@code n} rows in memory. */
  public Embeddings materialise(int n) {
    float[] flat = new float[Math.multiplyExact(n, dim)];
    read(0, n, flat);
    return Embeddings.ofFlat(n, dim, flat);
  }
}
