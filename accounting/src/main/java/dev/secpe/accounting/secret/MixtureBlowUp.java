package dev.secpe.accounting.secret;

import dev.secpe.accounting.StandardNormal;

import dev.secpe.accounting.Preconditions;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.pld.PldOptions;
import dev.secpe.accounting.pld.PoissonBinomial;
import dev.secpe.accounting.pld.PrivacyLossDistribution;
import java.util.Objects;

/**
 * Blow-up function of the SecPE dominating pair P = N(c S, sigma^2)^{xT} vs Q = N(0, sigma^2)^{xT},
 * {@code S ~ PoissonBinomial(shiftProbs)}, and its inverse in sigma.
 *
 * <p><b>One release (T = 1), exact.</b> The likelihood ratio {@code sum_k P(S=k) exp((c k x - (c
 * k)^2/2) / sigma^2)} is increasing in x (all shifts are non-negative), so by Neyman–Pearson the
 * optimal test at level alpha is {@code x > t} with {@code t = sigma PhiInv(1 - alpha)}, and
 * {@code B(alpha) = sum_k P(S = k) Phibar((t - c k) / sigma)}. The Poisson-binomial pmf comes from
 * the stable dynamic programme; any mass cut from its tails (at most 1e-9) is added to B in full.
 *
 * <p><b>T > 1 releases, through the PLD.</b> The sufficient statistic of T releases is not
 * one-dimensional (the mixture weights couple the coordinates), so there is no threshold test;
 * B is then {@code inf_eps (alpha e^eps + delta_T(eps))} from the pessimistic PLD accountant
 * ({@link PrivacyLossDistribution#secretMixture}), an upper bound with the accountant's
 * tolerance (about 1e-6 absolute at the default interval for the cases we checked).
 */
public final class MixtureBlowUp {

  /** Relative bracket width at which {@link #leastSigma} stops for T = 1. */
  public static final double EXACT_SIGMA_TOLERANCE = 1e-9;

  /** Relative bracket width at which {@link #leastSigma} stops for T > 1 (PLD evaluations). */
  public static final double PLD_SIGMA_TOLERANCE = 1e-4;

  private MixtureBlowUp() {}

  /** B(alpha) for T releases with the default PLD options when T > 1. */
  public static double blowUp(
      double sigma, double[] shiftProbs, double shiftMultiplier, int rounds, double alpha) {
    return blowUp(sigma, shiftProbs, shiftMultiplier, rounds, alpha, PldOptions.defaults());
  }

  /** B(alpha) for T releases; {@code options} is used only when T > 1. */
  public static double blowUp(
      double sigma,
      double[] shiftProbs,
      double shiftMultiplier,
      int rounds,
      double alpha,
      PldOptions options) {
    Preconditions.checkPositive("sigma", sigma);
    Objects.requireNonNull(shiftProbs, "shiftProbs");
    Preconditions.checkNonNegative("shiftMultiplier", shiftMultiplier);
    Preconditions.checkPositive("rounds", rounds);
    Preconditions.checkUnit("alpha", alpha);
    Objects.requireNonNull(options, "options");
    if (rounds == 1) {
      return exactOneRelease(sigma, PoissonBinomial.of(shiftProbs), shiftMultiplier, alpha);
    }
    return PrivacyLossDistribution.secretMixture(sigma, shiftProbs, shiftMultiplier, options)
        .selfCompose(rounds)
        .blowUp(alpha);
  }

  static double exactOneRelease(double sigma, PoissonBinomial pb, double c, double alpha) {
    if (alpha == 0) {
      // a threshold at +infinity; only the mass at infinite loss gets through
      return Math.min(1.0, pb.truncatedMass());
    }
    if (alpha == 1) {
      return 1.0;
    }
    // threshold t = sigma z; (t - c k)/sigma written as z - c k / sigma so that every step is
    // monotone in sigma and alpha in floating point too
    double z = upperQuantile(alpha);
    double b = pb.truncatedMass();
    for (int k = 0; k < pb.size(); k++) {
      b += pb.mass(k) * StandardNormal.sf(z - c * (pb.lowest() + k) / sigma);
    }
    // round up: a few ulps of the sum, never below alpha
    return Math.min(1.0, Math.max(alpha, b * (1 + 1e-13)));
  }

  /**
   * The least sigma with {@code B(p) <= r}, by bracketing and bisection that always returns the
   * upper end of the bracket, so the returned sigma satisfies the bound (up to the tolerance of
   * the blow-up evaluation itself); {@code sigma * (1 - tol)} would not, where {@code tol} is
   * {@link #EXACT_SIGMA_TOLERANCE} for T = 1 and {@link #PLD_SIGMA_TOLERANCE} otherwise. Returns
   * 0 when no sigma is needed (every shift probability is 0, so P = Q).
   */
  public static double leastSigma(
      double[] shiftProbs, double shiftMultiplier, int rounds, SecretBudget budget) {
    return leastSigma(shiftProbs, shiftMultiplier, rounds, budget, PldOptions.defaults());
  }

  /** {@link #leastSigma(double[], double, int, SecretBudget)} with explicit PLD options. */
  public static double leastSigma(
      double[] shiftProbs,
      double shiftMultiplier,
      int rounds,
      SecretBudget budget,
      PldOptions options) {
    Objects.requireNonNull(shiftProbs, "shiftProbs");
    Objects.requireNonNull(budget, "budget");
    Preconditions.checkNonNegative("shiftMultiplier", shiftMultiplier);
    Preconditions.checkPositive("rounds", rounds);
    PoissonBinomial pb = PoissonBinomial.of(shiftProbs);
    int maxShift = pb.lowest() + pb.size() - 1;
    if (maxShift == 0 || shiftMultiplier == 0) {
      if (pb.truncatedMass() > 0) {
        throw new IllegalStateException("unreachable: truncated mass with no shift");
      }
      return 0.0;
    }
    double p = budget.p();
    double r = budget.r();
    // As sigma -> 0 the adversary sees whether any shift occurred: B(p) -> 1 - P(S=0)^T (1 - p).
    double pZero = pb.lowest() == 0 ? pb.mass(0) : 0.0;
    double limitAtZero = 1.0 - Math.pow(pZero, rounds) * (1 - p) + pb.truncatedMass() * rounds;
    if (limitAtZero <= r) {
      return 0.0;
    }
    double mu = upperQuantile(p) - upperQuantile(r);
    // The mixture is dominated by its largest shift (a mixture's blow-up is at most the mixture
    // of the blow-ups), and T releases of a Gaussian shift C compose to shift C sqrt(T):
    // sigma = C sqrt(T) / mu always satisfies the bound, so start the bracket there.
    double analytic = shiftMultiplier * maxShift * Math.sqrt(rounds) / mu;
    double floor = 1e-12 * shiftMultiplier;
    if (rounds == 1) {
      BlowUpAt exact = sigma -> exactOneRelease(sigma, pb, shiftMultiplier, p);
      return bisect(exact, analytic / 2, analytic, EXACT_SIGMA_TOLERANCE, r, floor);
    }
    // T > 1: bracket from below by the exact one-release sigma (B_T >= B_1, so anything below
    // sigma_1 fails), from above by sigma_1 sqrt(T) (exact for a single Gaussian shift, widened
    // if needed); bisect first on a 10x coarser grid (cheap, still a valid upper bound), then
    // finish on the requested grid from the coarse answer. Every returned value is checked on
    // the requested grid.
    double sigma1 = leastSigma(shiftProbs, shiftMultiplier, 1, budget, options);
    double lo = sigma1 * (1 - 1e-6);
    double hi = sigma1 > 0 ? sigma1 * Math.sqrt(rounds) : analytic;
    BlowUpAt fine = pldBlowUp(shiftProbs, shiftMultiplier, rounds, p, options);
    double h = options.discretisationInterval();
    if (10 * h <= 0.05) {
      PldOptions coarseOptions = new PldOptions(10 * h, options.tailMass(), options.maxBins());
      BlowUpAt coarse = pldBlowUp(shiftProbs, shiftMultiplier, rounds, p, coarseOptions);
      double sc = bisect(coarse, lo, hi, 2e-3, r, floor);
      lo = Math.max(lo, sc * (1 - 1e-2));
      hi = sc;
    }
    return bisect(fine, lo, hi, PLD_SIGMA_TOLERANCE, r, floor);
  }

  private static BlowUpAt pldBlowUp(
      double[] shiftProbs, double c, int rounds, double p, PldOptions options) {
    return sigma ->
        PrivacyLossDistribution.secretMixture(sigma, shiftProbs, c, options)
            .selfCompose(rounds)
            .blowUp(p);
  }

  /**
   * Least sigma with f(sigma) <= r for a non-increasing f, to relative width {@code tol},
   * returning the upper end of the bracket (which satisfies the bound). The hints need not be a
   * bracket: hi is widened until it satisfies, lo narrowed until it violates.
   */
  private static double bisect(
      BlowUpAt f, double lo, double hi, double tol, double r, double floor) {
    while (f.at(hi) > r) {
      lo = hi;
      hi *= 1.5;
    }
    if (!(lo > 0) || lo >= hi) {
      lo = hi / 2;
    }
    while (f.at(lo) <= r) {
      hi = lo;
      lo /= 2;
      if (lo < floor) {
        return hi;
      }
    }
    while (hi - lo > tol * hi) {
      double mid = 0.5 * (lo + hi);
      if (f.at(mid) <= r) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /**
   * The paper's single-Gaussian approximation (SecPE §4): the mixture replaced by one Gaussian
   * with the mean shift {@code c E[S]}, so {@code sigma = c E[S] sqrt(T) / mu(p, r)}. <b>Not a
   * guarantee</b>: a mixture is not dominated by its mean, and this sigma can fall below the
   * exact one. Provided only to reproduce the paper.
   */
  public static double singleGaussianSigma(
      double[] shiftProbs, double shiftMultiplier, int rounds, SecretBudget budget) {
    Objects.requireNonNull(shiftProbs, "shiftProbs");
    Objects.requireNonNull(budget, "budget");
    double mean = 0;
    for (int i = 0; i < shiftProbs.length; i++) {
      mean += Preconditions.checkUnit("shiftProbs[" + i + "]", shiftProbs[i]);
    }
    double mu = upperQuantile(budget.p()) - upperQuantile(budget.r());
    return shiftMultiplier * mean * Math.sqrt(Preconditions.checkPositive("rounds", rounds)) / mu;
  }

  @FunctionalInterface
  private interface BlowUpAt {
    double at(double sigma);
  }

  /** Phi^{-1}(1 - p), accurate for small p (no 1 - p is formed). */
  private static double upperQuantile(double p) {
    return -StandardNormal.quantile(p);
  }
}
