package dev.secpe.accounting;

import java.util.Objects;

/**
 * The sensitivity of a query, with the norm it is measured in: L2 for the Gaussian mechanism, L1
 * for the Laplace mechanism. A typed value, so that a noise scale and a sensitivity cannot be
 * passed in each other's place (both are positive numbers, and a swap would account a different
 * mechanism without any error), nor an L1 bound given to a Gaussian release.
 *
 * @param norm the norm the sensitivity is measured in
 * @param value finite and > 0
 */
public record Sensitivity(Norm norm, double value) {

  /** The norm of a sensitivity. */
  public enum Norm {
    /** Sum of absolute changes: the Laplace mechanism's. */
    L1,
    /** Euclidean length of the change: the Gaussian mechanism's. */
    L2
  }

  /** Validates eagerly. */
  public Sensitivity {
    Objects.requireNonNull(norm, "norm");
    Preconditions.checkPositive("sensitivity", value);
  }

  /** An L1 sensitivity (Laplace). */
  public static Sensitivity l1(double value) {
    return new Sensitivity(Norm.L1, value);
  }

  /** An L2 sensitivity (Gaussian). */
  public static Sensitivity l2(double value) {
    return new Sensitivity(Norm.L2, value);
  }

  /**
   * This sensitivity's value, checked to be in {@code norm}.
   *
   * @throws IllegalArgumentException naming the mechanism when the norm differs
   */
  public double in(Norm expected, String mechanism) {
    if (norm != expected) {
      throw new IllegalArgumentException(mechanism + " needs an " + expected
          + " sensitivity, got sensitivity=" + this);
    }
    return value;
  }

  @Override
  public String toString() {
    return norm + "(" + value + ")";
  }
}
