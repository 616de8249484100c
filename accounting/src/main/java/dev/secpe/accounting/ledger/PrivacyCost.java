package dev.secpe.accounting.ledger;

import dev.secpe.accounting.Preconditions;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one release costs, in the terms the accountant composes. Each variant maps to a
 * privacy-loss distribution; the Gaussian ones also compose exactly in mu-GDP. Every variant
 * validates its parameters eagerly (NaN rejected, messages name the field and value).
 */
public sealed interface PrivacyCost {

  /**
   * A Gaussian mechanism with noise multiplier z = sigma / L2-sensitivity (mu = 1/z).
   *
   * @param noiseMultiplier z, finite and > 0
   */
  record Gaussian(double noiseMultiplier) implements PrivacyCost {
    /** Validates eagerly. */
    public Gaussian {
      Preconditions.checkPositive("noiseMultiplier", noiseMultiplier);
    }
  }

  /**
   * A Laplace mechanism with scale b and L1 sensitivity (epsilon = sensitivity / b).
   *
   * @param scale b, finite and > 0
   * @param sensitivity the L1 sensitivity, finite and > 0
   */
  record Laplace(double scale, double sensitivity) implements PrivacyCost {
    /** Validates eagerly. */
    public Laplace {
      Preconditions.checkPositive("scale", scale);
      Preconditions.checkPositive("sensitivity", sensitivity);
    }

    /** The pure-DP epsilon, sensitivity / scale. */
    public double epsilon() {
      return sensitivity / scale;
    }
  }

  /**
   * {@code steps} releases of the Poisson-subsampled Gaussian mechanism.
   *
   * @param noiseMultiplier z, finite and > 0
   * @param samplingRate q in (0, 1]
   * @param steps >= 1
   */
  record SubsampledGaussian(double noiseMultiplier, double samplingRate, int steps)
      implements PrivacyCost {
    /** Validates eagerly. */
    public SubsampledGaussian {
      Preconditions.checkPositive("noiseMultiplier", noiseMultiplier);
      Preconditions.checkProbabilityPositive("samplingRate", samplingRate);
      Preconditions.checkPositive("steps", steps);
    }
  }

  /**
   * A SecPE secret-clustering release: N(c * S_j, sigma^2) vs N(0, sigma^2) per secret j with
   * S_j ~ PoissonBinomial of the sampling probabilities of the records holding s_j. The arrays are
   * copied; equality compares their contents.
   *
   * @param sigma the noise multiplier of the release, finite and > 0
   * @param shiftMultiplier c (sqrt(2) for counts and centres, docs/math-decisions.md §4), finite and > 0
   * @param shiftProbsPerSecret for each secret j, the rho_i (in [0, 1]) of the records holding it
   * @param secretSet what names the secrets and their order, so that releases over different
   *     secrets are never composed as if secret j were the same in each: a digest of the secrets'
   *     keyed ids in index order (SecPE's), or null where the caller keeps one ledger per secret
   *     set itself. Two releases whose names differ (both non-null) cannot be composed.
   */
  record SecretMixture(double sigma, double shiftMultiplier, double[][] shiftProbsPerSecret, @Nullable String secretSet)
      implements PrivacyCost {

    /** A release over secrets that are not named (see {@link #secretSet()}). */
    public SecretMixture(double sigma, double shiftMultiplier, double[][] shiftProbsPerSecret) {
      this(sigma, shiftMultiplier, shiftProbsPerSecret, null);
    }

    /** Validates and copies eagerly. */
    public SecretMixture {
      if (secretSet != null && secretSet.isBlank()) {
        throw new IllegalArgumentException("secretSet must be null or non-blank, got secretSet='" + secretSet + "'");
      }
      Preconditions.checkPositive("sigma", sigma);
      Preconditions.checkPositive("shiftMultiplier", shiftMultiplier);
      if (shiftProbsPerSecret == null || shiftProbsPerSecret.length == 0) {
        throw new IllegalArgumentException("shiftProbsPerSecret must name at least one secret");
      }
      double[][] copy = new double[shiftProbsPerSecret.length][];
      for (int j = 0; j < copy.length; j++) {
        if (shiftProbsPerSecret[j] == null) {
          throw new IllegalArgumentException("shiftProbsPerSecret[" + j + "] must not be null");
        }
        copy[j] = shiftProbsPerSecret[j].clone();
        for (int i = 0; i < copy[j].length; i++) {
          Preconditions.checkUnit("shiftProbsPerSecret[" + j + "][" + i + "]", copy[j][i]);
        }
      }
      shiftProbsPerSecret = copy;
    }

    /** A copy of the per-secret shift probabilities. */
    @Override
    public double[][] shiftProbsPerSecret() {
      double[][] copy = new double[shiftProbsPerSecret.length][];
      for (int j = 0; j < copy.length; j++) {
        copy[j] = shiftProbsPerSecret[j].clone();
      }
      return copy;
    }

    /** The number of secrets. */
    public int secretCount() {
      return shiftProbsPerSecret.length;
    }

    /**
     * The largest possible shift of secret j, {@code c * #{i : rho_i > 0}}: the Gaussian with this
     * shift dominates the mixture (its blow-up is at least the mixture's at every alpha).
     */
    public double maxShift(int j) {
      int k = 0;
      for (double rho : shiftProbsPerSecret[j]) {
        if (rho > 0) {
          k++;
        }
      }
      return shiftMultiplier * k;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SecretMixture m
          && Double.compare(sigma, m.sigma) == 0
          && Double.compare(shiftMultiplier, m.shiftMultiplier) == 0
          && Arrays.deepEquals(shiftProbsPerSecret, m.shiftProbsPerSecret)
          && Objects.equals(secretSet, m.secretSet);
    }

    /**
     * Whether this release and {@code other} may be composed secret by secret: the same number of
     * secrets, and not two different names for them.
     */
    public boolean sameSecretsAs(SecretMixture other) {
      return secretCount() == other.secretCount()
          && (secretSet == null || other.secretSet == null || secretSet.equals(other.secretSet));
    }

    @Override
    public int hashCode() {
      return 31 * (31 * (31 * Double.hashCode(sigma) + Double.hashCode(shiftMultiplier))
          + Arrays.deepHashCode(shiftProbsPerSecret)) + Objects.hashCode(secretSet);
    }

    @Override
    public String toString() {
      return "SecretMixture[sigma="
          + sigma
          + ", shiftMultiplier="
          + shiftMultiplier
          + ", secrets="
          + shiftProbsPerSecret.length
          + "]";
    }
  }

  /**
   * A pure epsilon-DP mechanism accounted only by its epsilon (e.g. AboveThreshold / SVT).
   *
   * @param epsilon finite and > 0
   */
  record PureDp(double epsilon) implements PrivacyCost {
    /** Validates eagerly. */
    public PureDp {
      Preconditions.checkPositive("epsilon", epsilon);
    }
  }
}
