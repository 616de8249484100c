package dev.secpe.clustering;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * The private part of SecPE's secret clustering before noise: for each public centre k, how many
 * sampled private rows are nearest to it ({@code m_k}) and the exact sum of those rows after
 * clipping ({@code s_k}). Counts are integers and sums are {@link ExactSums}, so aggregates of
 * disjoint parts of the data {@link #merge} into exactly the aggregate of the whole, whatever the
 * partitioning or the merge order.
 *
 * <p>Private data: never log it or write it anywhere; {@link #toString()} shows only the shape.
 * Serializable, so that a distributed store can send partial aggregates to its driver.
 */
public final class ClusterAggregate implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int centres;
  private final int dimension;
  private final long[] counts;
  private final ExactSums sums;

  /** The aggregate of no rows: all counts and sums zero. */
  public ClusterAggregate(int centres, int dimension) {
    if (centres < 0 || dimension < 1) {
      throw new IllegalArgumentException(
          "centres must be >= 0 and dimension >= 1, got centres=" + centres + " dimension=" + dimension);
    }
    this.centres = centres;
    this.dimension = dimension;
    this.counts = new long[centres];
    this.sums = new ExactSums(Math.multiplyExact(centres, dimension));
  }

  /** Adds one clipped row, nearest to {@code centre}. */
  void add(int centre, float[] rows, int offset) {
    counts[centre]++;
    sums.addRow(centre * dimension, rows, offset, dimension);
  }

  /**
   * Adds {@code other} into this aggregate (exactly).
   *
   * @throws IllegalArgumentException if the shapes differ
   */
  public ClusterAggregate merge(ClusterAggregate other) {
    if (other.centres != centres || other.dimension != dimension) {
      throw new IllegalArgumentException(
          "aggregates must have the same shape to merge, got " + centres + "x" + dimension + " and "
              + other.centres + "x" + other.dimension);
    }
    for (int c = 0; c < centres; c++) {
      counts[c] += other.counts[c];
    }
    sums.merge(other.sums);
    return this;
  }

  /** The number of centres. */
  public int centres() {
    return centres;
  }

  /** The dimension of the rows. */
  public int dimension() {
    return dimension;
  }

  /** {@code m_k}: sampled rows nearest to centre k. */
  public long count(int k) {
    return counts[k];
  }

  /** {@code s_k[j]}: the exact sum of coordinate j of those rows, rounded once to a double. */
  public double sum(int k, int j) {
    Objects.checkIndex(j, dimension);
    return sums.value(k * dimension + j);
  }

  /** All sums, row-major (centre k's at {@code k * dimension}), each rounded once. */
  public double[] sums() {
    return sums.values();
  }

  /** Zeroes every count and sum (private aggregates should not outlive their release). */
  public void clear() {
    Arrays.fill(counts, 0);
    sums.clear();
  }

  @Override
  public String toString() {
    return "ClusterAggregate[" + centres + " centres, d=" + dimension + "]";
  }
}
