package dev.secpe.accounting.pld;

import dev.secpe.accounting.Bisection;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Preconditions;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * DP-SGD with Poisson sampling ({@code q = batchSize / datasetSize}), Gaussian noise multiplier
 * sigma on clipped gradients (sensitivity 1), {@code steps} steps: epsilon from sigma and the
 * least sigma for a target (epsilon, delta).
 *
 * <p>{@link Accountant#PLD} (the default) composes the two-direction PLD of {@link
 * PrivacyLossDistribution#poissonSubsampledGaussian}, from interval {@link #PLD_INTERVAL} and
 * refined by {@link PldAccountant} until its pessimistic and optimistic bounds agree;
 * {@link Accountant#RDP} uses {@link RdpAccountant}, looser and independent, as a cross-check.
 * The calibrated sigma is the upper end of a bisection bracket of relative width
 * {@link #SIGMA_TOLERANCE}, checked by the chosen accountant's own epsilon, so that {@code
 * epsilon(noiseMultiplier(budget)) <= budget.epsilon()} holds exactly, in floating point.
 */
public final class DpSgd {

  /** Relative width of the bisection bracket at which {@link #noiseMultiplier} stops. */
  public static final double SIGMA_TOLERANCE = 1e-4;

  /** Discretisation interval of the PLD accountant here (nats). */
  public static final double PLD_INTERVAL = 1e-3;

  private DpSgd() {}

  /** Which accountant composes the steps. */
  public enum Accountant {
    /** Privacy-loss distribution (connect-the-dots, FFT); tight. The default. */
    PLD,
    /** Rényi DP of the sampled Gaussian with the Balle et al. 2020 conversion; looser. */
    RDP
  }

  /** The epsilon at {@code delta} of DP-SGD with noise multiplier {@code sigma}. */
  public static double epsilon(
      long datasetSize, int batchSize, int steps, double sigma, double delta, Accountant accountant) {
    Objects.requireNonNull(accountant, "accountant");
    if (accountant == Accountant.RDP) {
      double q = samplingRate(datasetSize, batchSize);
      checkQuery(steps, sigma, delta);
      return RdpAccountant.epsilon(q, sigma, steps, delta);
    }
    return epsilonBounds(datasetSize, batchSize, steps, sigma, delta, null).upper();
  }

  /**
   * The PLD accountant's certified interval for the epsilon at {@code delta}: its upper bound (what
   * {@link #epsilon} returns), a lower bound on the true epsilon, and the interval at which they
   * met (within {@link PldAccountant#DEFAULT_RELATIVE_GAP} where the grid allows).
   *
   * @param progress receives each interval's bounds as refinement goes (null: none)
   */
  public static PldAccountant.Bounds epsilonBounds(
      long datasetSize, int batchSize, int steps, double sigma, double delta,
      @Nullable Consumer<PldAccountant.Bounds> progress) {
    double q = samplingRate(datasetSize, batchSize);
    checkQuery(steps, sigma, delta);
    return refined(q, steps, sigma, delta, progress);
  }

  private static void checkQuery(int steps, double sigma, double delta) {
    Preconditions.checkPositive("steps", steps);
    Preconditions.checkPositive("sigma", sigma);
    Preconditions.checkOpenUnit("delta", delta);
  }

  private static PldAccountant.Bounds refined(
      double q, int steps, double sigma, double delta,
      @Nullable Consumer<PldAccountant.Bounds> progress) {
    return PldAccountant.refine(composition(q, steps, sigma), p -> p.epsilon(delta),
        p -> p.finiteEpsilon(delta), PldAccountant.DEFAULT_RELATIVE_GAP,
        PldOptions.withInterval(PLD_INTERVAL), progress);
  }

  private static PldAccountant.Composition composition(double q, int steps, double sigma) {
    return o -> PrivacyLossDistribution.poissonSubsampledGaussian(sigma, q, o).selfCompose(steps);
  }

  /**
   * The pessimistic epsilon of one composition at interval {@code h} (coarsened by 4 while the grid
   * does not fit), tilted towards {@code target}: an upper bound, one composition, no lower bound.
   * With the target at the epsilon asked about it lies within a few 1e-4 of the refined bound at
   * the same interval (the Yelp setting at 1e-3: 4.00078 against 4.00004).
   */
  private static double upperAt(double q, int steps, double sigma, double delta, double h, double target) {
    double tilted = pessimisticAt(q, steps, sigma, delta, h, target);
    if (tilted <= target) {
      return tilted;
    }
    // far above the least multiplier epsilon lies far below the target, where a composition tilted
    // towards the target lumps its mass: a valid bound, but useless there; the untilted one is not
    return Math.min(tilted, pessimisticAt(q, steps, sigma, delta, h, Double.NaN));
  }

  /** The pessimistic epsilon of one composition at h (coarsened while it does not fit), tilted. */
  private static double pessimisticAt(
      double q, int steps, double sigma, double delta, double h, double target) {
    double interval = h;
    while (true) {
      try {
        return composition(q, steps, sigma)
            .at(PldOptions.withInterval(interval).tiltTarget(target)).epsilon(delta);
      } catch (IllegalStateException tooManyBins) {
        if (interval * 4 > 1.0) {
          throw tooManyBins;
        }
        interval *= 4;
      }
    }
  }

  /** The least noise multiplier (within {@link #SIGMA_TOLERANCE}, rounded up) meeting the budget. */
  public static double noiseMultiplier(
      long datasetSize, int batchSize, int steps, DpBudget budget, Accountant accountant) {
    return noiseMultiplier(datasetSize, batchSize, steps, budget, accountant, null);
  }

  /**
   * {@link #noiseMultiplier(long, int, int, DpBudget, Accountant)}, reporting each stage as a line
   * of text to {@code progress} (null: none).
   *
   * <p>With the PLD accountant the search costs about two refined epsilon queries, not one per
   * bisection step (the Yelp setting, 2,365 steps at delta 3.56e-8, took 160 s): the RDP
   * accountant's sigma (closed form, an upper bound on epsilon, so its sigma meets the budget)
   * brackets the answer; a bisection on the pessimistic bound of one composition at interval 1e-3
   * tilted towards the target epsilon (a few 1e-4 above the refined bound) narrows it to 1e-3;
   * a refined query there gives the interval the accountant needs, and a bisection on the
   * pessimistic bound at that interval narrows it to {@link #SIGMA_TOLERANCE}; the result is then
   * checked by the refined query itself ({@link #epsilon}), and raised by the tolerance until it
   * passes, so that {@code epsilon(noiseMultiplier(budget)) <= budget.epsilon()} exactly.
   */
  public static double noiseMultiplier(
      long datasetSize, int batchSize, int steps, DpBudget budget, Accountant accountant,
      @Nullable Consumer<String> progress) {
    double q = samplingRate(datasetSize, batchSize);
    Preconditions.checkPositive("steps", steps);
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(accountant, "accountant");
    double eps = budget.epsilon();
    double delta = budget.delta();
    if (!(eps > 0) || !(delta > 0)) {
      throw new IllegalArgumentException(
          "DP-SGD needs epsilon > 0 and delta > 0, got epsilon=" + eps + " delta=" + delta);
    }
    Consumer<String> say = progress == null ? m -> { } : progress;
    String unmet = "no noise multiplier up to 1e6 meets epsilon=" + eps + " delta=" + delta;
    // the RDP accountant's own answer to the tolerance; for the PLD's search a bracket end suffices
    double rdp = bracket(s -> RdpAccountant.epsilon(q, s, steps, delta) <= eps, 1.0,
        accountant == Accountant.RDP ? SIGMA_TOLERANCE : 1e-3, unmet)[1];
    if (accountant == Accountant.RDP) {
      return rdp;
    }
    say.accept(String.format(Locale.ROOT,
        "estimate: sigma <= %.6g (the RDP accountant's, looser); the PLD accountant's follows", rdp));
    // 1. the coarse pessimistic bound, tilted towards eps, from the RDP sigma down
    double[] c = coarseBracket(s -> upperAt(q, steps, s, delta, PLD_INTERVAL, eps) - eps, rdp, unmet);
    say.accept(String.format(Locale.ROOT,
        "coarse: sigma in [%.6g, %.6g] (pessimistic bound at interval %s)", c[0], c[1], PLD_INTERVAL));
    if (c[0] == 0) {
      return verified(q, steps, c[1], delta, eps, say);
    }
    // 2. the interval refinement would reach there, predicted from one optimistic composition at
    //    1e-3 (a refined query built the finer grid twice more, as much as the rest of the search)
    double predicted = PldAccountant.predictedInterval(
        composition(q, steps, c[1]), p -> p.epsilon(delta), eps, PLD_INTERVAL);
    // where the refinement stays coarse it is cheap, and its own interval (its pass may be
    // untilted, polished or not) is the one the answer must be least by
    double h = predicted >= PLD_INTERVAL / 4
        ? Math.min(PLD_INTERVAL, refined(q, steps, c[1], delta, null).upperInterval())
        : predicted;
    say.accept(String.format(Locale.ROOT,
        "the refinement's interval there: %.3g (%s)", h,
        predicted >= PLD_INTERVAL / 4 ? "refined" : "predicted from interval " + PLD_INTERVAL));
    // within 1e-3 of the answer the tilt towards eps is the right one
    DoublePredicate fine = s -> pessimisticAt(q, steps, s, delta, h, eps) <= eps;
    double hi = c[1];
    double lo = c[0];
    if (h < PLD_INTERVAL) {
      // the finer bound is a little lower than the coarse one, and as smooth in sigma: one value at
      // the bracket's top and the coarse bound's slope place its root; a bracket of the tolerance
      // around it is then confirmed (three compositions, where bisection took five)
      double top = pessimisticAt(q, steps, hi, delta, h, eps);
      double slope = (c[2] - c[3]) / (hi - lo);
      double guess = top <= eps && slope > 0 ? hi - (eps - top) / slope : Double.NaN;
      if (guess > lo) {
        double up = guess * (1 + 0.4 * SIGMA_TOLERANCE);
        if (up < hi && fine.test(up)) {
          hi = up;
        }
        lo = Math.max(lo, guess * (1 - 0.4 * SIGMA_TOLERANCE));
      }
      double[] b = Bisection.widenedDown(fine, lo, hi, 1e-3);
      hi = Bisection.upperEnd(fine, b[0], b[1], SIGMA_TOLERANCE);
    }
    return verified(q, steps, hi, delta, eps, say);
  }

  /**
   * {@code sigma}, raised by {@link #SIGMA_TOLERANCE} until the refined epsilon ({@link #epsilon})
   * meets {@code eps}: every bound on the way was an upper bound too, but of another grid.
   */
  private static double verified(
      double q, int steps, double sigma, double delta, double eps, Consumer<String> say) {
    double s = sigma;
    double step = SIGMA_TOLERANCE;
    for (int i = 0; ; i++) {
      double e = refined(q, steps, s, delta, null).upper();
      say.accept(String.format(Locale.ROOT, "checked: sigma %.6g gives epsilon %.6g", s, e));
      if (e <= eps) {
        return s;
      }
      if (s > 1e6) {
        throw new IllegalStateException(
            "no noise multiplier up to 1e6 meets epsilon=" + eps + " delta=" + delta);
      }
      s = s * (1 + step);
      if (i >= 8) {
        step *= 2; // not a rounding matter: the bounds of the search and the check disagree
      }
    }
  }

  /**
   * A bracket {@code {lo, hi, f(lo), f(hi)}} of relative width 1e-3 around the root of {@code f}
   * (the coarse bound less the target: positive below the answer, at most 0 from it up), searched
   * from {@code start} (doubling up, then down by factors of 0.8) and closed by the Illinois
   * variant of regula falsi (the bound is smooth in sigma: about five compositions, where bisection
   * from half the start took ten); {@code lo = 0} where every multiplier down to 1e-3 meets it.
   */
  private static double[] coarseBracket(DoubleUnaryOperator f, double start, String unmet) {
    double hi = start;
    double fHi = f.applyAsDouble(hi);
    while (!(fHi <= 0)) {
      hi *= 2;
      if (hi > 1e6) {
        throw new IllegalStateException(unmet);
      }
      fHi = f.applyAsDouble(hi);
    }
    double lo = hi * 0.8;
    double fLo = f.applyAsDouble(lo);
    while (fLo <= 0) {
      hi = lo;
      fHi = fLo;
      lo *= 0.8;
      if (lo < 1e-3) {
        return new double[] {0, hi, Double.NaN, fHi};
      }
      fLo = f.applyAsDouble(lo);
    }
    int side = 0; // which end moved last: -1 lo, +1 hi
    double wLo = fLo; // the Illinois method's weights of the ends
    double wHi = fHi;
    while (hi - lo > 1e-3 * hi) {
      double s = Double.isFinite(wLo) ? hi - wHi * (hi - lo) / (wHi - wLo) : 0.5 * (lo + hi);
      double margin = 0.01 * (hi - lo);
      s = Math.min(hi - margin, Math.max(lo + margin, s));
      double fs = f.applyAsDouble(s);
      if (fs <= 0) {
        hi = s;
        fHi = fs;
        wHi = fs;
        if (side == 1) {
          wLo /= 2;
        }
        side = 1;
      } else {
        lo = s;
        fLo = fs;
        wLo = fs;
        if (side == -1) {
          wHi /= 2;
        }
        side = -1;
      }
    }
    return new double[] {lo, hi, fLo, fHi};
  }

  /**
   * A bracket {@code [lo, hi]} of relative width {@code tolerance} with {@code meets(hi)} and not
   * {@code meets(lo)}, searched from {@code start} (doubling up, halving down); {@code lo = 0} where
   * every multiplier down to 1e-3 meets it.
   */
  private static double[] bracket(
      DoublePredicate meets, double start, double tolerance, String unmet) {
    double hi = start;
    while (!meets.test(hi)) {
      hi *= 2;
      if (hi > 1e6) {
        throw new IllegalStateException(unmet);
      }
    }
    double lo = hi / 2;
    while (meets.test(lo)) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-3) {
        return new double[] {0, hi};
      }
    }
    double upper = Bisection.upperEnd(meets, lo, hi, tolerance);
    return new double[] {upper * (1 - tolerance), upper};
  }

  private static double samplingRate(long datasetSize, int batchSize) {
    Preconditions.checkPositive("datasetSize", datasetSize);
    Preconditions.checkPositive("batchSize", batchSize);
    if (batchSize > datasetSize) {
      throw new IllegalArgumentException(
          "batchSize must not exceed datasetSize, got batchSize=" + batchSize
              + " datasetSize=" + datasetSize);
    }
    return (double) batchSize / datasetSize;
  }
}
