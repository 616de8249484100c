package dev.secpe.clustering;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Arrays;

/**
 * An immutable {@code rows x dim} matrix of finite {@code float}s, stored row-major in one flat
 * array. Every factory copies its input and rejects NaN and infinities, naming the offending
 * row and column; accessors return copies. This is the currency of the clustering API: one row
 * per embedded text.
 */
final class Embeddings implements RowSource {

  private final int rows;
  private final int dim;
  private final float[] data;

  private Embeddings(int rows, int dim, float[] data) {
    this.rows = rows;
    this.dim = dim;
    this.data = data;
  }

  /**
   * A copy of {@code rows}; every row must have the same positive length and finite entries.
   *
   * @throws IllegalArgumentException naming the row (and column) that is ragged or not finite
   */
  static Embeddings of(float[][] rows) {
    return of("embeddings", rows);
  }

  /** As {@link #of(float[][])}, with {@code name} used in error messages. */
  static Embeddings of(String name, float[][] rows) {
    if (rows == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (rows.length == 0) {
      throw new IllegalArgumentException(name + " must have at least one row, got rows=0");
    }
    int dim = rows[0] == null ? 0 : rows[0].length;
    if (dim == 0) {
      throw new IllegalArgumentException(name + " must have dim >= 1, got " + name + "[0].length=0");
    }
    float[] flat = new float[Math.multiplyExact(rows.length, dim)];
    for (int i = 0; i < rows.length; i++) {
      float[] r = rows[i];
      if (r == null || r.length != dim) {
        throw new IllegalArgumentException(
            name + " rows must all have length " + dim + ", got " + name + "[" + i + "].length="
                + (r == null ? "null" : r.length));
      }
      System.arraycopy(r, 0, flat, i * dim, dim);
    }
    checkFinite(name, flat, dim);
    return new Embeddings(rows.length, dim, flat);
  }

  /** As {@link #of(float[][])} from doubles (each value rounded to the nearest float). */
  static Embeddings ofDoubles(String name, double[][] rows) {
    if (rows == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    float[][] f = new float[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      if (rows[i] == null) {
        throw new IllegalArgumentException(name + "[" + i + "] must not be null");
      }
      f[i] = new float[rows[i].length];
      for (int j = 0; j < rows[i].length; j++) {
        f[i][j] = (float) rows[i][j];
      }
    }
    return of(name, f);
  }

  /**
   * A copy of a row-major flat array holding {@code rows x dim} values.
   *
   * @throws IllegalArgumentException if the length is not {@code rows * dim} or a value is not
   *     finite
   */
  static Embeddings ofFlat(int rows, int dim, float[] rowMajor) {
    if (rows < 1 || dim < 1) {
      throw new IllegalArgumentException(
          "rows and dim must be >= 1, got rows=" + rows + " dim=" + dim);
    }
    if (rowMajor == null || rowMajor.length != (long) rows * dim) {
      throw new IllegalArgumentException(
          "rowMajor.length must equal rows*dim=" + ((long) rows * dim) + ", got rowMajor.length="
              + (rowMajor == null ? "null" : rowMajor.length));
    }
    float[] copy = rowMajor.clone();
    checkFinite("embeddings", copy, dim);
    return new Embeddings(rows, dim, copy);
  }

  /** Reads every row of {@code source} into memory (it must have at most 2^31-1 values). */
  static Embeddings copyOf(RowSource source) {
    if (source instanceof Embeddings e) {
      return e;
    }
    long n = source.rows();
    if (n < 1 || n * source.dim() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "source must have 1 to " + (Integer.MAX_VALUE - 8) + " values, got rows=" + n
              + " dim=" + source.dim());
    }
    float[] flat = new float[(int) (n * source.dim())];
    source.read(0, (int) n, flat);
    checkFinite("source", flat, source.dim());
    return new Embeddings((int) n, source.dim(), flat);
  }

  /** Wraps an array this package owns and will never modify again (no copy, no check). */
  /** The rows of {@code m} (already finite), as the kernel's flat storage. */
  static Embeddings of(String name, EmbeddingMatrix m) {
    if (m == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (m.rows() == 0) {
      throw new IllegalArgumentException(name + " must have at least one row, got rows=0");
    }
    return new Embeddings(m.rows(), m.dimension(), m.toFlatArray());
  }

  /** These rows as the library's embedding matrix (a copy). */
  EmbeddingMatrix toMatrix() {
    return EmbeddingMatrix.ofFlat(rows, dim, data);
  }

  static Embeddings wrapTrusted(int rows, int dim, float[] data) {
    return new Embeddings(rows, dim, data);
  }

  static void checkFinite(String name, float[] flat, int dim) {
    for (int i = 0; i < flat.length; i++) {
      if (!Float.isFinite(flat[i])) {
        throw new IllegalArgumentException(
            name + " must be finite, got " + name + "[" + (i / dim) + "][" + (i % dim) + "]="
                + flat[i]);
      }
    }
  }

  /** Number of rows. */
  @Override
  public long rows() {
    return rows;
  }

  /** Number of rows as an int. */
  public int size() {
    return rows;
  }

  /** Number of columns (the embedding dimension). */
  @Override
  public int dim() {
    return dim;
  }

  /** The value at ({@code row}, {@code col}). */
  public float get(int row, int col) {
    if (row < 0 || row >= rows || col < 0 || col >= dim) {
      throw new IndexOutOfBoundsException("(" + row + ", " + col + ") outside " + rows + "x" + dim);
    }
    return data[row * dim + col];
  }

  /** A copy of row {@code i}. */
  public float[] row(int i) {
    if (i < 0 || i >= rows) {
      throw new IndexOutOfBoundsException("row " + i + " outside 0.." + (rows - 1));
    }
    return Arrays.copyOfRange(data, i * dim, (i + 1) * dim);
  }

  /** A copy as a {@code float[rows][dim]}. */
  public float[][] toArray() {
    float[][] out = new float[rows][];
    for (int i = 0; i < rows; i++) {
      out[i] = row(i);
    }
    return out;
  }

  /** A copy of the row-major values. */
  public float[] toFlatArray() {
    return data.clone();
  }

  /** Copies rows {@code [first, first+count)} into {@code dst} (row-major). */
  @Override
  public void read(long first, int count, float[] dst) {
    if (first < 0 || count < 0 || first + count > rows) {
      throw new IndexOutOfBoundsException(
          "rows [" + first + ", " + (first + count) + ") outside 0.." + rows);
    }
    System.arraycopy(data, (int) first * dim, dst, 0, count * dim);
  }

  /** The backing array; callers in this package must not modify it. */
  float[] data() {
    return data;
  }

  @Override
  public String toString() {
    return "Embeddings[" + rows + "x" + dim + "]";
  }
}
