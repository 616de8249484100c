package dev.secpe.accounting;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A (p, r)-secret-protection budget per secret: the vectors {@code p} and {@code r} of SecPE
 * Definition 3.1, index j being secret j. Immutable.
 *
 * @param budgets one budget per secret (non-empty, no nulls; copied)
 */
public record SecretBudgets(List<SecretBudget> budgets) {

  /** Validates and copies eagerly. */
  public SecretBudgets {
    Objects.requireNonNull(budgets, "budgets");
    if (budgets.isEmpty()) {
      throw new IllegalArgumentException("budgets must not be empty, got 0 secrets");
    }
    for (int j = 0; j < budgets.size(); j++) {
      if (budgets.get(j) == null) {
        throw new IllegalArgumentException("budgets[" + j + "] must not be null");
      }
    }
    budgets = List.copyOf(budgets);
  }

  /** The same budget for each of {@code secretCount} secrets. */
  public static SecretBudgets uniform(SecretBudget budget, int secretCount) {
    Objects.requireNonNull(budget, "budget");
    Preconditions.checkPositive("secretCount", secretCount);
    return new SecretBudgets(Collections.nCopies(secretCount, budget));
  }

  /** The number of secrets. */
  public int size() {
    return budgets.size();
  }

  /** The budget of secret j. */
  public SecretBudget get(int j) {
    return budgets.get(j);
  }

  /** The priors p_j. */
  public double[] p() {
    return budgets.stream().mapToDouble(SecretBudget::p).toArray();
  }

  /** The bounds r_j. */
  public double[] r() {
    return budgets.stream().mapToDouble(SecretBudget::r).toArray();
  }

  /**
   * Per secret, the largest mu such that mu-GDP implies this secret's budget (eq. 4, see {@link
   * Gdp#muFor(SecretBudget)}).
   */
  public List<GdpMu> muPerSecret() {
    List<GdpMu> out = new ArrayList<>(size());
    for (SecretBudget b : budgets) {
      out.add(Gdp.muFor(b));
    }
    return List.copyOf(out);
  }

  /** The strictest of {@link #muPerSecret()}: a mu-GDP mechanism with it meets every budget. */
  public GdpMu strictestMu() {
    double min = Double.POSITIVE_INFINITY;
    for (GdpMu m : muPerSecret()) {
      min = Math.min(min, m.mu());
    }
    return new GdpMu(min);
  }

  /**
   * SecPE Theorem 3 (naive composition), coordinate-wise: {@code p = max(p1, p2)}, {@code r = r1 +
   * r2}.
   *
   * @throws IllegalArgumentException if the two vectors have different lengths
   * @throws IllegalStateException if a composed r reaches 1 (the composition protects nothing)
   */
  public SecretBudgets composeNaive(SecretBudgets other) {
    Objects.requireNonNull(other, "other");
    if (other.size() != size()) {
      throw new IllegalArgumentException(
          "secret counts must match, got " + size() + " and " + other.size());
    }
    List<SecretBudget> out = new ArrayList<>(size());
    for (int j = 0; j < size(); j++) {
      SecretBudget a = get(j);
      SecretBudget b = other.get(j);
      double p = Math.max(a.p(), b.p());
      double r = Math.nextUp(a.r() + b.r());
      if (!(r < 1)) {
        throw new IllegalStateException(
            "composed r reaches 1 for secret " + j + ", got r1=" + a.r() + " r2=" + b.r());
      }
      out.add(new SecretBudget(p, r));
    }
    return new SecretBudgets(out);
  }
}
