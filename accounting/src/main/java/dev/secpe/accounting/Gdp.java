package dev.secpe.accounting;

import java.util.List;
import java.util.Objects;

/**
 * Gaussian differential privacy (Dong, Roth and Su 2019) and its links to (epsilon, delta)-DP and
 * to SecPE's (p, r) secret protection.
 *
 * <h2>Numerical contract</h2>
 *
 * <ul>
 *   <li>Evaluated quantities ({@link #blowUp}, {@link #tradeOff}, {@link #deltaAt}, {@link
 *       #secretR}, {@link #lemmaC2}, {@link #compose}) are rounded <em>outward</em> (towards less
 *       privacy) by the relative margin {@link #EVALUATION_MARGIN}, which exceeds their
 *       evaluation error measured against 50-digit mpmath references (see {@code
 *       accounting/src/test/python/gdp_reference.py}).
 *   <li>Solved quantities ({@link #epsilonAt}, {@link #muFor(DpBudget)}, {@link
 *       #muFor(SecretBudget)}) come from bisection with relative tolerance {@link
 *       #SOLVER_TOLERANCE} and always return the end of the bracket on the safe side, judged by
 *       the outward-rounded evaluations above (like Hipparchus' {@code AllowedSolution}): a
 *       returned epsilon satisfies {@code deltaAt(mu, epsilon) <= delta}; a returned mu satisfies
 *       {@code deltaAt(mu, epsilon) <= delta} and {@code epsilonAt(mu, delta) <= epsilon} (both
 *       on doubles, so the budget round-trips exactly), or {@code blowUp(mu, p) <= r}.
 * </ul>
 *
 * <p>All tail probabilities are computed with {@link StandardNormal}, never as {@code 1 - x} for x
 * near one, so p = 1e-4 with r = 1e-3 or a delta of 1e-12 keep their digits. Note the
 * identities used: {@code PhiInv(1 - p) = -PhiInv(p)}, hence SecPE's eq. (4) reads {@code r =
 * Phi(PhiInv(p) + mu) = B_mu(p)} and {@code mu = PhiInv(r) - PhiInv(p)}.
 */
public final class Gdp {

  /** Relative outward rounding applied to every evaluated quantity. */
  public static final double EVALUATION_MARGIN = 1e-11;

  /** Relative bracket width at which the bisection solvers stop. */
  public static final double SOLVER_TOLERANCE = 1e-12;

  /**
   * The largest mu {@link #muFor(DpBudget)} solves for: a budget allowing more is refused as
   * protecting nothing (noise below a millionth of the sensitivity).
   */
  public static final double MAX_MU = 1e6;

  private Gdp() {}

  // ---------------------------------------------------------------- trade-off and blow-up

  /**
   * The trade-off function {@code G_mu(alpha) = Phi(PhiInv(1 - alpha) - mu)}: the least type-II
   * error of a test at type-I error alpha. Rounded down.
   *
   * @param alpha in [0, 1]
   */
  public static double tradeOff(GdpMu mu, double alpha) {
    Preconditions.checkUnit("alpha", alpha);
    if (alpha == 0) {
      return 1.0;
    }
    if (alpha == 1) {
      return 0.0;
    }
    return down(StandardNormal.cdf(-StandardNormal.quantile(alpha) - mu.mu()));
  }

  /**
   * The blow-up function {@code B_mu(alpha) = Phi(PhiInv(alpha) + mu) = 1 - G_mu(alpha)}
   * (docs/math-decisions.md §2): the largest probability under P of an event with probability at most
   * alpha under Q. Rounded up, capped at 1.
   *
   * @param alpha in [0, 1]
   */
  public static double blowUp(GdpMu mu, double alpha) {
    Preconditions.checkUnit("alpha", alpha);
    if (alpha == 0) {
      return 0.0;
    }
    if (alpha == 1) {
      return 1.0;
    }
    return up(StandardNormal.cdf(StandardNormal.quantile(alpha) + mu.mu()));
  }

  /**
   * The blow-up of an (epsilon, delta)-DP mechanism: with its trade-off {@code f(alpha) = max(0, 1
   * - delta - e^eps alpha, e^-eps (1 - delta - alpha))} (Dong et al. 2019, Prop. 2.5), {@code
   * B(alpha) = 1 - f(alpha) = min(1, e^eps alpha + delta, delta + alpha + (1 - e^-eps)(1 - delta -
   * alpha))}. By the argument of SecPE Lemma 3.2 it is the (p, r) bound at {@code alpha = p}, tight
   * for that reading of Definition 3.1. Rounded up.
   *
   * @param alpha in [0, 1]
   */
  public static double blowUp(DpBudget budget, double alpha) {
    Preconditions.checkUnit("alpha", alpha);
    double eps = budget.epsilon();
    double delta = budget.delta();
    double first = Math.exp(eps) * alpha + delta;
    double second = delta + alpha + (-Math.expm1(-eps)) * Math.max(0.0, 1 - delta - alpha);
    return up(Math.min(first, second));
  }

  // ---------------------------------------------------------------- (epsilon, delta)

  /**
   * The exact privacy profile of mu-GDP (Dong et al. 2019, Cor. 2.13; SecPE Remark C.1):
   * {@code delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)}. Rounded up.
   *
   * <p>Computed as {@code phi(a) (R(-a) - R(-b))} with {@code a = -eps/mu + mu/2}, {@code b = a -
   * mu} and R the Mills ratio, using {@code e^eps phi(b) = phi(a)}: no overflow for large epsilon
   * and no subtraction of two numbers near one. The difference of Mills ratios loses about
   * {@code log10(|a| / mu)} digits, which for any delta above 1e-300 stays within the margin.
   *
   * @param epsilon finite and >= 0
   */
  public static double deltaAt(GdpMu mu, double epsilon) {
    Preconditions.checkNonNegative("epsilon", epsilon);
    return up(deltaRaw(mu.mu(), epsilon));
  }

  static double deltaRaw(double mu, double eps) {
    if (mu == 0) {
      return 0.0;
    }
    double a = -eps / mu + mu / 2;
    double b = a - mu;
    double phiA = StandardNormal.pdf(a);
    double v;
    if (a <= 0) {
      v = phiA * (StandardNormal.millsRatio(-a) - StandardNormal.millsRatio(-b));
    } else {
      v = StandardNormal.cdf(a) - phiA * StandardNormal.millsRatio(-b);
    }
    return Math.max(0.0, Math.min(1.0, v));
  }

  /**
   * The least epsilon >= 0 with {@code deltaAt(mu, epsilon) <= delta}, by bisection to relative
   * width {@link #SOLVER_TOLERANCE}, returning the upper (safe) end.
   *
   * @param delta in (0, 1)
   */
  public static double epsilonAt(GdpMu mu, double delta) {
    Preconditions.checkOpenUnit("delta", delta);
    if (deltaAt(mu, 0.0) <= delta) {
      return 0.0;
    }
    double lo = 0.0;
    double hi = Math.max(1.0, mu.mu() * mu.mu());
    while (deltaAt(mu, hi) > delta) {
      lo = hi;
      hi *= 2;
      if (!Double.isFinite(hi)) {
        throw new ArithmeticException(
            "no finite epsilon reaches delta=" + delta + " for mu=" + mu.mu());
      }
    }
    while (hi - lo > SOLVER_TOLERANCE * hi) {
      double mid = 0.5 * (lo + hi);
      if (deltaAt(mu, mid) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /** The (epsilon, delta) guarantee implied by mu-GDP at the given delta. */
  public static DpBudget toDp(GdpMu mu, double delta) {
    return new DpBudget(epsilonAt(mu, delta), delta);
  }

  /**
   * The largest mu such that mu-GDP implies the (epsilon, delta) budget, i.e. {@code deltaAt(mu,
   * epsilon) <= delta}; bisection with the lower (safe) end returned. This is the noise of the
   * analytic Gaussian mechanism (Balle and Wang 2018): sigma = sensitivity / mu. A budget with
   * delta = 0 gives mu = 0 (no Gaussian mechanism is pure DP).
   *
   * @throws IllegalArgumentException naming epsilon and delta if they allow mu above {@link
   *     #MAX_MU} (a budget that protects nothing)
   */
  public static GdpMu muFor(DpBudget budget) {
    Objects.requireNonNull(budget, "budget");
    double eps = budget.epsilon();
    double delta = budget.delta();
    if (delta == 0) {
      return new GdpMu(0.0);
    }
    double lo = 0.0;
    double hi = 1.0;
    while (deltaAt(new GdpMu(hi), eps) <= delta) {
      lo = hi;
      hi *= 2;
      if (hi > MAX_MU) {
        // Not a numerical failure: such a budget allows so little noise that it protects nothing.
        throw new IllegalArgumentException(
            "epsilon=" + eps + " at delta=" + delta + " allows mu above " + MAX_MU + " (noise below "
                + 1 / MAX_MU + " of the sensitivity): it protects nothing; use a smaller epsilon, or"
                + " nonPrivate() / r/p = inf for a non-private baseline");
      }
    }
    while (hi - lo > SOLVER_TOLERANCE * hi) {
      double mid = 0.5 * (lo + hi);
      if (deltaAt(new GdpMu(mid), eps) <= delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return new GdpMu(roundTripped(lo, eps, delta));
  }

  /**
   * {@code mu}, lowered until {@link #epsilonAt} at delta gives at most {@code eps} on doubles:
   * {@code deltaAt(mu, eps) <= delta} holds by the bisection, but {@code epsilonAt} returns the
   * upper end of its own bracket, up to {@link #SOLVER_TOLERANCE} above the true epsilon (epsilon
   * 0.05, delta 1e-2 gave 0.05000000000001137). Lowering mu by a few times that tolerance (each
   * step doubles) brings the true epsilon below by more than the bracket; it costs a relative 1e-12
   * of mu.
   */
  private static double roundTripped(double mu, double eps, double delta) {
    double m = mu;
    double step = 2 * SOLVER_TOLERANCE;
    while (m > 0 && epsilonAt(new GdpMu(m), delta) > eps) {
      m = m * (1 - step);
      step *= 2;
    }
    return m;
  }

  // ---------------------------------------------------------------- composition

  /**
   * Composition of Gaussian-DP mechanisms (Dong et al. 2019, Cor. 3.3): {@code mu = sqrt(sum
   * mu_i^2)}, exact for adaptive composition. Rounded up. The empty composition is 0.
   */
  public static GdpMu compose(List<GdpMu> mus) {
    double scale = 0;
    for (GdpMu m : mus) {
      scale = Math.max(scale, m.mu());
    }
    if (scale == 0) {
      return new GdpMu(0.0);
    }
    double sum = 0;
    for (GdpMu m : mus) {
      double x = m.mu() / scale;
      sum += x * x;
    }
    return new GdpMu(upValue(scale * Math.sqrt(sum)));
  }

  /** The T-fold self-composition: {@code sqrt(T) * mu}, rounded up. */
  public static GdpMu compose(GdpMu mu, int times) {
    Preconditions.checkPositive("times", times);
    return new GdpMu(upValue(Math.sqrt(times) * mu.mu()));
  }

  // ---------------------------------------------------------------- secret protection

  /**
   * SecPE Lemma 3.2, eq. (4): a mu-GDP mechanism gives (p, r)-secret protection with {@code r = 1
   * - Phi(PhiInv(1 - p) - mu) = B_mu(p)}. Rounded up; may round to 1 for large mu (then no
   * protection is implied).
   *
   * @param p the prior, in (0, 1)
   */
  public static double secretR(GdpMu mu, double p) {
    Preconditions.checkOpenUnit("p", p);
    return blowUp(mu, p);
  }

  /**
   * The (p, r) budget implied by mu-GDP at prior p (eq. 4).
   *
   * @throws IllegalStateException if r rounds to 1 (mu too large for any protection at this p)
   */
  public static SecretBudget toSecret(GdpMu mu, double p) {
    double r = secretR(mu, p);
    if (!(r < 1)) {
      throw new IllegalStateException(
          "mu=" + mu.mu() + " implies no secret protection at p=" + p + " (r rounds to 1)");
    }
    if (!(r > p)) {
      r = Math.nextUp(p);
    }
    return new SecretBudget(p, r);
  }

  /**
   * The inverse of eq. (4): the largest mu with {@code B_mu(p) <= r}, i.e. {@code mu = PhiInv(1 -
   * p) - PhiInv(1 - r) = PhiInv(r) - PhiInv(p)}, refined by bisection so that the outward-rounded
   * {@link #blowUp} at the returned mu does not exceed r.
   */
  public static GdpMu muFor(SecretBudget budget) {
    double p = budget.p();
    double r = budget.r();
    double guess = StandardNormal.quantile(r) - StandardNormal.quantile(p);
    // bracket the closed form tightly; widen to [0, guess] only if rounding pushed it out
    double lo = Math.max(0.0, guess * (1 - 1e-9) - 1e-12);
    double hi = Math.max(guess * (1 + 1e-9) + 1e-12, lo + 1e-12);
    if (blowUp(new GdpMu(lo), p) > r) {
      hi = lo;
      lo = 0.0;
      if (blowUp(new GdpMu(0.0), p) > r) {
        return new GdpMu(0.0); // r within rounding of p: only mu = 0 is certain
      }
    }
    while (blowUp(new GdpMu(hi), p) <= r) {
      lo = hi;
      hi = hi * 2 + 1e-12;
    }
    while (hi - lo > SOLVER_TOLERANCE * hi) {
      double mid = 0.5 * (lo + hi);
      if (blowUp(new GdpMu(mid), p) <= r) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return new GdpMu(lo);
  }

  /**
   * SecPE Lemma C.2: an (epsilon, delta)-DP mechanism gives (p, r)-secret protection with {@code r
   * = 1 / (1 + (e^eps + 1/c)^{-1} (1 - p) / p) + c delta} for every {@code c >= 1}. This returns
   * the bound at the optimal c, rounded up.
   *
   * <p>The optimum: with {@code k = (1 - p)/p} and {@code A = e^eps} the bound is {@code f(c) = u
   * / (u + k) + c delta} with {@code u = A + 1/c}; {@code f'(c) = delta - k / (c (A + k) + 1)^2}
   * is increasing, so f is convex and minimised at {@code c* = max(1, (sqrt(k / delta) - 1) / (A
   * + k))}. For delta = 0 the limit c -> infinity gives {@code r = 1 / (1 + e^-eps (1 - p) / p)}.
   * The result may be >= 1, which means that no protection is implied.
   *
   * <p><b>Caution.</b> This bound rests on the proof's two-hypothesis reading (prior p on the
   * dataset with the secret, 1 - p on the one without) and can be <em>smaller</em> than eq. (4),
   * which is tight under the blow-up reading of Definition 3.1 that Lemma 3.2 uses (Hayes et al.
   * 2023, Thm. 2): for mu = 2.34, p = 1e-3, the (eps, delta(eps)) pair of mu-GDP at delta = 0.1
   * gives 0.2251 here against {@code B_mu(p) = 0.22656} (checked with mpmath; see {@code
   * GdpPropertiesTest#lemmaC2CanUndercutEquation4}). The same happens for pure DP, where it gives
   * {@code e^eps p / (e^eps p + 1 - p)} against the blow-up {@code e^eps p}. The ledger therefore
   * does not use it; it uses {@link #blowUp(DpBudget, double)}. It is provided because the paper
   * states it.
   *
   * @param p the prior, in (0, 1)
   */
  public static double lemmaC2(DpBudget budget, double p) {
    Preconditions.checkOpenUnit("p", p);
    double eps = budget.epsilon();
    double delta = budget.delta();
    double k = (1 - p) / p;
    if (delta == 0) {
      return upValue(1.0 / (1.0 + Math.exp(-eps) * k));
    }
    double a = Math.exp(eps);
    double c = Math.max(1.0, (Math.sqrt(k / delta) - 1) / (a + k));
    return upValue(lemmaC2At(a, k, delta, c));
  }

  /** The Lemma C.2 bound at a given c >= 1 (exposed for tests of the optimisation). */
  static double lemmaC2At(double expEps, double k, double delta, double c) {
    double u = expEps + 1.0 / c;
    return 1.0 / (1.0 + k / u) + c * delta;
  }

  // ---------------------------------------------------------------- rounding

  /** Rounds a probability up by the margin, capped at 1. */
  static double up(double x) {
    return Math.min(1.0, upValue(x));
  }

  /** Rounds a non-negative value up by the margin (no cap). */
  static double upValue(double x) {
    return x == 0 ? 0.0 : Math.nextUp(x * (1 + EVALUATION_MARGIN));
  }

  static double down(double x) {
    return Math.max(0.0, x * (1 - EVALUATION_MARGIN));
  }
}
