package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Objects;

/** Eager argument checks shared by the metrics; messages name the argument and its value. */
final class Checks {

  private Checks() {}

  static EmbeddingMatrix rowsAtLeast(EmbeddingMatrix m, String name, int min) {
    Objects.requireNonNull(m, name);
    if (m.rows() < min) {
      throw new IllegalArgumentException(
          name + " needs at least " + min + " rows, got rows=" + m.rows());
    }
    return m;
  }

  static void sameDimension(EmbeddingMatrix a, String an, EmbeddingMatrix b, String bn) {
    if (a.dimension() != b.dimension()) {
      throw new IllegalArgumentException(
          an + " and " + bn + " must have one dimension, got " + an + ".dimension="
              + a.dimension() + " " + bn + ".dimension=" + b.dimension());
    }
  }

  /** Two sets of row vectors checked for a two-sample distance: copies, finite, same dimension. */
  record TwoSets(double[][] a, double[][] b) {}

  /** Two embedding sets of at least {@code minRows} rows each and one dimension, as doubles. */
  static TwoSets twoSets(EmbeddingMatrix a, EmbeddingMatrix b, int minRows) {
    rowsAtLeast(a, "a", minRows);
    rowsAtLeast(b, "b", minRows);
    sameDimension(a, "a", b, "b");
    return new TwoSets(toDouble(a), toDouble(b));
  }

  /** Two row-vector sets of at least {@code minRows} rows each, copied, finite and of one dimension. */
  static TwoSets twoSets(double[][] a, double[][] b, int minRows) {
    double[][] x = finiteMatrix(a, "a", minRows);
    double[][] y = finiteMatrix(b, "b", minRows);
    if (x[0].length != y[0].length) {
      throw new IllegalArgumentException(
          "a and b must have one dimension, got a.dimension=" + x[0].length + " b.dimension="
              + y[0].length);
    }
    return new TwoSets(x, y);
  }

  /** Copies a rectangular, finite, non-empty double matrix. */
  static double[][] finiteMatrix(double[][] m, String name, int minRows) {
    Objects.requireNonNull(m, name);
    if (m.length < minRows) {
      throw new IllegalArgumentException(
          name + " needs at least " + minRows + " rows, got rows=" + m.length);
    }
    int d = m.length == 0 ? 0 : Objects.requireNonNull(m[0], name + "[0]").length;
    if (m.length > 0 && d == 0) {
      throw new IllegalArgumentException(name + " must have dimension > 0, got dimension=0");
    }
    double[][] out = new double[m.length][];
    for (int i = 0; i < m.length; i++) {
      double[] r = Objects.requireNonNull(m[i], name + "[" + i + "]");
      if (r.length != d) {
        throw new IllegalArgumentException(
            name + " row " + i + " has dimension " + r.length + ", expected " + d);
      }
      for (int j = 0; j < d; j++) {
        if (!Double.isFinite(r[j])) {
          throw new IllegalArgumentException(
              name + "[" + i + "][" + j + "] must be finite, got " + r[j]);
        }
      }
      out[i] = r.clone();
    }
    return out;
  }

  static double[][] toDouble(EmbeddingMatrix m) {
    double[][] out = new double[m.rows()][m.dimension()];
    float[] flat = m.toFlatArray();
    int d = m.dimension();
    for (int i = 0; i < out.length; i++) {
      for (int j = 0; j < d; j++) {
        out[i][j] = flat[i * d + j];
      }
    }
    return out;
  }

  static int positive(int v, String name) {
    if (v <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, got " + name + "=" + v);
    }
    return v;
  }

  static double positiveFinite(double v, String name) {
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be finite and > 0, got " + name + "=" + v);
    }
    return v;
  }
}
