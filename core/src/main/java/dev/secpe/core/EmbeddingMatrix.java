package dev.secpe.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable {@code rows x dimension} matrix of finite floats, one embedding per row, stored
 * row-major in one flat array. Plain Java: backends (ND4J, ONNX) convert at their module walls.
 */
public final class EmbeddingMatrix {

  /** What {@link #normalizeRows(ZeroRowPolicy)} does with a row of norm zero. */
  public enum ZeroRowPolicy {
    /** Throw {@link IllegalStateException} naming the row. The default. */
    REJECT,
    /** Keep the zero row as it is (it then has norm 0, not 1). */
    KEEP_ZERO
  }

  private final float[] data;
  private final int rows;
  private final int dimension;

  private EmbeddingMatrix(float[] data, int rows, int dimension) {
    this.data = data;
    this.rows = rows;
    this.dimension = dimension;
  }

  /**
   * A matrix whose rows are copies of {@code rows}.
   *
   * @throws IllegalArgumentException if rows differ in length, a value is not finite, or a row is
   *     empty
   */
  public static EmbeddingMatrix of(float[][] rows) {
    Objects.requireNonNull(rows, "rows");
    int dim = rows.length == 0 ? 0 : rows[0].length;
    if (rows.length > 0 && dim == 0) {
      throw new IllegalArgumentException("embedding dimension must be > 0, got dimension=0");
    }
    float[] flat = new float[Math.multiplyExact(rows.length, dim)];
    for (int i = 0; i < rows.length; i++) {
      float[] r = Objects.requireNonNull(rows[i], "row");
      if (r.length != dim) {
        throw new IllegalArgumentException(
            "row " + i + " has dimension " + r.length + ", expected " + dim);
      }
      System.arraycopy(r, 0, flat, i * dim, dim);
    }
    checkFinite(flat, dim);
    return new EmbeddingMatrix(flat, rows.length, dim);
  }

  /**
   * A matrix of {@code rows x dimension} values copied from {@code flat} (row-major).
   *
   * @throws IllegalArgumentException if sizes disagree or a value is not finite
   */
  public static EmbeddingMatrix ofFlat(int rows, int dimension, float[] flat) {
    Objects.requireNonNull(flat, "flat");
    if (rows < 0) {
      throw new IllegalArgumentException("rows must be >= 0, got rows=" + rows);
    }
    if (dimension <= 0) {
      throw new IllegalArgumentException("dimension must be > 0, got dimension=" + dimension);
    }
    if ((long) rows * dimension != flat.length) {
      throw new IllegalArgumentException(
          "flat array has " + flat.length + " values, expected rows*dimension=" + rows + "*"
              + dimension);
    }
    float[] copy = flat.clone();
    checkFinite(copy, dimension);
    return new EmbeddingMatrix(copy, rows, dimension);
  }

  /** An empty matrix of the given dimension. */
  public static EmbeddingMatrix empty(int dimension) {
    return ofFlat(0, dimension, new float[0]);
  }

  /** Stacks matrices of one dimension vertically. */
  public static EmbeddingMatrix concat(List<EmbeddingMatrix> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("concat needs at least one matrix");
    }
    int dim = parts.get(0).dimension;
    int total = 0;
    for (EmbeddingMatrix m : parts) {
      if (m.dimension != dim) {
        throw new IllegalArgumentException(
            "cannot stack dimension " + m.dimension + " onto dimension " + dim);
      }
      total = Math.addExact(total, m.rows);
    }
    float[] flat = new float[Math.multiplyExact(total, dim)];
    int off = 0;
    for (EmbeddingMatrix m : parts) {
      System.arraycopy(m.data, 0, flat, off, m.data.length);
      off += m.data.length;
    }
    return new EmbeddingMatrix(flat, total, dim);
  }

  private static void checkFinite(float[] flat, int dim) {
    for (int k = 0; k < flat.length; k++) {
      if (!Float.isFinite(flat[k])) {
        throw new IllegalArgumentException(
            "embedding value at row " + (k / dim) + ", column " + (k % dim) + " is not finite: "
                + flat[k]);
      }
    }
  }

  /** The number of rows. */
  public int rows() {
    return rows;
  }

  /** The number of columns (the embedding dimension). */
  public int dimension() {
    return dimension;
  }

  /** The value at {@code (row, column)}. */
  public float get(int row, int column) {
    Objects.checkIndex(row, rows);
    Objects.checkIndex(column, dimension);
    return data[row * dimension + column];
  }

  /** A copy of row {@code i}. */
  public float[] row(int i) {
    Objects.checkIndex(i, rows);
    return Arrays.copyOfRange(data, i * dimension, (i + 1) * dimension);
  }

  /** Copies row {@code i} into {@code dst} at {@code offset}. */
  public void copyRow(int i, float[] dst, int offset) {
    Objects.checkIndex(i, rows);
    System.arraycopy(data, i * dimension, dst, offset, dimension);
  }

  /** A copy of the row-major values. */
  public float[] toFlatArray() {
    return data.clone();
  }

  /** A copy as one array per row. */
  public float[][] toArray() {
    float[][] out = new float[rows][];
    for (int i = 0; i < rows; i++) {
      out[i] = row(i);
    }
    return out;
  }

  /** The L2 norm of row {@code i}, accumulated in double. */
  public double rowNorm(int i) {
    Objects.checkIndex(i, rows);
    double s = 0;
    for (int k = i * dimension, e = k + dimension; k < e; k++) {
      s += (double) data[k] * data[k];
    }
    return Math.sqrt(s);
  }

  /** The dot product of row {@code i} of this and row {@code j} of {@code other}, in double. */
  public double dot(int i, EmbeddingMatrix other, int j) {
    if (other.dimension != dimension) {
      throw new IllegalArgumentException(
          "dimensions differ: " + dimension + " vs " + other.dimension);
    }
    Objects.checkIndex(i, rows);
    Objects.checkIndex(j, other.rows);
    double s = 0;
    int a = i * dimension;
    int b = j * dimension;
    for (int k = 0; k < dimension; k++) {
      s += (double) data[a + k] * other.data[b + k];
    }
    return s;
  }

  /** Rows scaled to unit L2 norm; a zero row is rejected ({@link ZeroRowPolicy#REJECT}). */
  public EmbeddingMatrix normalizeRows() {
    return normalizeRows(ZeroRowPolicy.REJECT);
  }

  /** Rows scaled to unit L2 norm, zero rows handled by {@code policy}. */
  public EmbeddingMatrix normalizeRows(ZeroRowPolicy policy) {
    Objects.requireNonNull(policy, "policy");
    float[] out = new float[data.length];
    for (int i = 0; i < rows; i++) {
      double norm = rowNorm(i);
      if (norm == 0) {
        if (policy == ZeroRowPolicy.REJECT) {
          throw new IllegalStateException("row " + i + " has norm 0 and cannot be normalised");
        }
        continue;
      }
      for (int k = i * dimension, e = k + dimension; k < e; k++) {
        out[k] = (float) (data[k] / norm);
      }
    }
    return new EmbeddingMatrix(out, rows, dimension);
  }

  /** The rows at the given indices, in that order (indices may repeat). */
  public EmbeddingMatrix selectRows(int[] indices) {
    float[] out = new float[Math.multiplyExact(indices.length, dimension)];
    for (int k = 0; k < indices.length; k++) {
      Objects.checkIndex(indices[k], rows);
      System.arraycopy(data, indices[k] * dimension, out, k * dimension, dimension);
    }
    return new EmbeddingMatrix(out, indices.length, dimension);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EmbeddingMatrix m
        && m.rows == rows
        && m.dimension == dimension
        && Arrays.equals(m.data, data);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * rows + dimension) + Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return "EmbeddingMatrix[" + rows + " x " + dimension + "]";
  }
}
