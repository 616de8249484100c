package dev.secpe.accounting.secret;

import java.util.Arrays;
import java.util.Objects;

/**
 * One connected piece of SecPE's linear programme (6), reduced: maximise {@code sum_k x_k} subject
 * to {@code sum_{k in rows[j]} x_k <= capacity[j]} for every row j and {@code 0 <= x_k <=
 * upper[k]}. Every coefficient is 1. A variable is either one record that holds several secrets
 * ({@code upper = 1}) or the total weight of the records that hold only secret j ({@code upper} =
 * their number); {@link SecretNoise} builds these and maps the solution back to records. What a
 * {@link SecretLpSolver} receives; arrays are defensive copies.
 *
 * @param upper the upper bound of each variable (finite, {@code > 0})
 * @param rows for each constraint, the indices of its variables (distinct, in {@code [0,
 *     upper.length)})
 * @param capacity the right-hand side of each constraint (finite, {@code >= 0})
 */
public record SecretLpProblem(double[] upper, int[][] rows, double[] capacity) {

  /** Validates and copies. */
  public SecretLpProblem {
    Objects.requireNonNull(upper, "upper");
    Objects.requireNonNull(rows, "rows");
    Objects.requireNonNull(capacity, "capacity");
    if (rows.length != capacity.length) {
      throw new IllegalArgumentException(
          "rows and capacity must have one entry per constraint, got rows=" + rows.length
              + " capacity=" + capacity.length);
    }
    for (int k = 0; k < upper.length; k++) {
      if (!(upper[k] > 0) || Double.isInfinite(upper[k])) {
        throw new IllegalArgumentException("upper bound must be finite and > 0, got upper[" + k + "]=" + upper[k]);
      }
    }
    int[][] copy = new int[rows.length][];
    for (int j = 0; j < rows.length; j++) {
      if (!(capacity[j] >= 0) || Double.isInfinite(capacity[j])) {
        throw new IllegalArgumentException("capacity must be finite and >= 0, got capacity[" + j + "]=" + capacity[j]);
      }
      copy[j] = Objects.requireNonNull(rows[j], "rows[" + j + "]").clone();
      for (int k : copy[j]) {
        if (k < 0 || k >= upper.length) {
          throw new IllegalArgumentException(
              "variable index must be in [0, " + upper.length + "), got rows[" + j + "] holding " + k);
        }
      }
    }
    upper = upper.clone();
    rows = copy;
    capacity = capacity.clone();
  }

  /** The number of variables. */
  public int variables() {
    return upper.length;
  }

  /** The number of constraint non-zeros (every coefficient is 1). */
  public long nonZeros() {
    long n = 0;
    for (int[] r : rows) {
      n += r.length;
    }
    return n;
  }

  /** The upper bound of each variable (a copy). */
  @Override
  public double[] upper() {
    return upper.clone();
  }

  /** For each constraint, the indices of its variables (a deep copy). */
  @Override
  public int[][] rows() {
    int[][] copy = new int[rows.length][];
    for (int j = 0; j < rows.length; j++) {
      copy[j] = rows[j].clone();
    }
    return copy;
  }

  /** The right-hand side of each constraint (a copy). */
  @Override
  public double[] capacity() {
    return capacity.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SecretLpProblem p
        && Arrays.equals(upper, p.upper)
        && Arrays.deepEquals(rows, p.rows)
        && Arrays.equals(capacity, p.capacity);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(upper) + Arrays.deepHashCode(rows)) + Arrays.hashCode(capacity);
  }

  @Override
  public String toString() {
    return "SecretLpProblem{variables=" + upper.length + ", constraints=" + rows.length + ", nonZeros=" + nonZeros() + "}";
  }
}
