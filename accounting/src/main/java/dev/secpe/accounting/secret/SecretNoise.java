package dev.secpe.accounting.secret;

import dev.secpe.accounting.SecretBudget;
import java.util.List;

/**
 * SecPE Algorithm 1 (SECRETNOISE): sampling probabilities {@code rho} from the linear program
 * (6) and the least noise {@code sigma} such that, for every secret j, the blow-up of the
 * dominating pair N(c * S_j, sigma^2)^{xT} vs N(0, sigma^2)^{xT} at p_j is at most r_j, where
 * {@code S_j ~ PoissonBinomial(rho_i : i holds s_j)} and {@code c} is the shift multiplier
 * (sqrt(2) when both counts and centres are released, DESIGN §4).
 *
 * <p>Use {@link #builder()}.
 */
public final class SecretNoise {

  private SecretNoise() {}

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** How the blow-up of the mixture pair is computed. */
  public enum BlowUpMethod {
    /** Exact for T = 1 (Neyman–Pearson on the mixture); PLD accountant for T > 1. The default. */
    EXACT,
    /** The paper's single-Gaussian approximation of the mixture. Not a guarantee; opt-in only. */
    SINGLE_GAUSSIAN_APPROXIMATION
  }

  /** Builder; validates each value as it is set and the combination in {@link #solve()}. */
  public static final class Builder {
    Builder() {}

    /**
     * The secrets each record holds: {@code secretsOfRecord.get(i)} lists the indices (0-based,
     * below {@code secretCount}) of the secrets record i contains; an empty array for none.
     */
    public Builder records(List<int[]> secretsOfRecord, int secretCount) {
      throw new UnsupportedOperationException("not yet implemented");
    }

    /** One budget for every secret. */
    public Builder uniformBudget(SecretBudget budget) {
      throw new UnsupportedOperationException("not yet implemented");
    }

    /** A budget per secret (index j of the list is secret j). */
    public Builder budgets(List<SecretBudget> perSecret) {
      throw new UnsupportedOperationException("not yet implemented");
    }

    /** Number of releases T of the same mechanism (1 when released once, DESIGN §5). */
    public Builder rounds(int t) {
      throw new UnsupportedOperationException("not yet implemented");
    }

    /** Shift multiplier c: 1 for a count release alone, sqrt(2) for counts and centres. */
    public Builder shiftMultiplier(double c) {
      throw new UnsupportedOperationException("not yet implemented");
    }

    /** Blow-up method; {@link BlowUpMethod#EXACT} by default. */
    public Builder blowUpMethod(BlowUpMethod method) {
      throw new UnsupportedOperationException("not yet implemented");
    }

    /** Solves the LP and calibrates sigma. */
    public SecretNoiseResult solve() {
      throw new UnsupportedOperationException("not yet implemented");
    }
  }
}
