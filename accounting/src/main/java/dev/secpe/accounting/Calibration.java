package dev.secpe.accounting;

/**
 * Noise calibration for the standard mechanisms. Every returned noise scale is rounded
 * <em>up</em> (more noise, more privacy) and every returned privacy parameter is rounded up
 * (a weaker claim); tolerances are those of {@link Gdp}: relative {@link Gdp#SOLVER_TOLERANCE}
 * for solved values, relative {@link Gdp#EVALUATION_MARGIN} for evaluated ones; solved sigmas
 * carry a further relative {@link #LEDGER_SLACK}. Every noise returned for a budget meets it when
 * the library's own accountant evaluates it, on doubles ({@code RoundTripPropertiesTest}).
 */
public final class Calibration {

  private static final double MARGIN = 1e-12;

  /**
   * Relative slack added to every solved sigma (1e-9) so that a {@link
   * dev.secpe.accounting.ledger.PrivacyLedger} limited to the same budget, which rounds its
   * composition outward by 1e-11, still certifies a release calibrated here. It costs a relative
   * 1e-9 of noise.
   */
  public static final double LEDGER_SLACK = 1e-9;

  private Calibration() {}

  /**
   * The classic Gaussian mechanism (Dwork and Roth 2014, Thm. A.1): {@code sigma = sqrt(2
   * ln(1.25/delta)) * sensitivity / epsilon}. The theorem only holds for {@code epsilon < 1}, so
   * larger epsilons are rejected; use {@link #analyticGaussianSigma} (always valid and smaller).
   *
   * @param sensitivity the L2 sensitivity, finite and > 0
   * @throws IllegalArgumentException if epsilon is not in (0, 1) or delta is not in (0, 1)
   */
  public static double classicGaussianSigma(DpBudget budget, double sensitivity) {
    Preconditions.checkPositive("sensitivity", sensitivity);
    if (!(budget.epsilon() > 0 && budget.epsilon() < 1)) {
      throw new IllegalArgumentException(
          "the classic Gaussian mechanism needs epsilon in (0, 1), got epsilon="
              + budget.epsilon()
              + " (use the analytic Gaussian mechanism)");
    }
    Preconditions.checkOpenUnit("delta", budget.delta());
    return up(Math.sqrt(2 * Math.log(1.25 / budget.delta())) * sensitivity / budget.epsilon());
  }

  /**
   * The analytic Gaussian mechanism (Balle and Wang 2018, Thm. 8): the least sigma whose exact
   * privacy profile {@code delta(eps; sensitivity / sigma)} is at most delta, i.e. {@code sigma =
   * sensitivity / mu} with mu from {@link Gdp#muFor(DpBudget)} (largest mu, lower end of the
   * bisection), then rounded up.
   *
   * @param sensitivity the L2 sensitivity, finite and > 0
   * @throws IllegalArgumentException if delta is 0 (no Gaussian noise is pure DP)
   */
  public static double analyticGaussianSigma(DpBudget budget, double sensitivity) {
    Preconditions.checkPositive("sensitivity", sensitivity);
    Preconditions.checkOpenUnit("delta", budget.delta());
    double mu = Gdp.muFor(budget).mu();
    if (!(mu > 0)) {
      throw new IllegalArgumentException("no finite sigma meets " + budget);
    }
    return up(sensitivity / mu * (1 + LEDGER_SLACK));
  }

  /**
   * Aug-PE's noise (Xie et al. 2024; microsoft/DPSDA {@code pe/dp/gaussian.py}): T releases of a
   * sensitivity-1 Gaussian mechanism with multiplier sigma compose to {@code sqrt(T)/sigma}-GDP;
   * the mu meeting (epsilon, delta) comes from {@link Gdp#muFor(DpBudget)} and {@code sigma =
   * sqrt(T) / mu}, rounded up.
   */
  public static NoiseMultiplier privateEvolutionNoise(DpBudget budget, int rounds) {
    Preconditions.checkPositive("rounds", rounds);
    Preconditions.checkOpenUnit("delta", budget.delta());
    double mu = Gdp.muFor(budget).mu();
    if (!(mu > 0)) {
      throw new IllegalArgumentException("no finite sigma meets " + budget);
    }
    return new NoiseMultiplier(up(Math.sqrt(rounds) / mu * (1 + LEDGER_SLACK)));
  }

  /**
   * The multiplier of {@code releases} sensitivity-1 Gaussian releases that compose to {@code
   * mu}-GDP: {@code sqrt(releases) / mu}, with the {@link #LEDGER_SLACK} and rounded up, so that
   * the composed guarantee, computed back from it, never exceeds the budget mu came from.
   */
  public static NoiseMultiplier gdpNoise(GdpMu mu, int releases) {
    Preconditions.checkPositive("releases", releases);
    if (!(mu.mu() > 0)) {
      throw new IllegalArgumentException("mu must be > 0, got mu=" + mu.mu());
    }
    return new NoiseMultiplier(up(Math.sqrt(releases) / mu.mu() * (1 + LEDGER_SLACK)));
  }

  /** The Laplace mechanism: {@code b = sensitivity / epsilon}, rounded up. */
  public static double laplaceScale(double epsilon, double sensitivity) {
    Preconditions.checkPositive("epsilon", epsilon);
    Preconditions.checkPositive("sensitivity", sensitivity);
    return up(sensitivity / epsilon);
  }

  /**
   * Scales of AboveThreshold (Dwork and Roth 2014, Alg. 1), epsilon-DP for queries of the given
   * sensitivity: threshold noise {@code Lap(2 Delta / eps)}, query noise {@code Lap(4 Delta /
   * eps)}.
   *
   * @param thresholdScale b of the Laplace noise on the threshold
   * @param queryScale b of the Laplace noise on each query
   * @param epsilon the epsilon one run spends
   */
  public record SvtScales(double thresholdScale, double queryScale, double epsilon) {}

  /** AboveThreshold scales for one run spending epsilon. */
  public static SvtScales aboveThreshold(double epsilon, double sensitivity) {
    Preconditions.checkPositive("epsilon", epsilon);
    Preconditions.checkPositive("sensitivity", sensitivity);
    return new SvtScales(up(2 * sensitivity / epsilon), up(4 * sensitivity / epsilon), epsilon);
  }

  /**
   * DPGA-TextSyn's length-range SVT (appendix B.2 / §4.1): AboveThreshold runs twice (minimum and
   * maximum), each with {@code epsSvt / 2}, sensitivity 1: threshold noise {@code Lap(2 /
   * (epsSvt/2))}, query noise {@code Lap(4 / (epsSvt/2))}. The returned scales are per run.
   */
  public static SvtScales dpgaLengthRangeSvt(double epsSvt) {
    Preconditions.checkPositive("epsSvt", epsSvt);
    return aboveThreshold(epsSvt / 2, 1.0);
  }

  /**
   * Amplification by Poisson subsampling with rate q (Balle et al. 2018; DPGA Lemma B.5): an
   * (eps, delta)-DP mechanism run on a Poisson sample is {@code (ln(1 + q (e^eps - 1)), q
   * delta)}-DP. Rounded up.
   */
  public static DpBudget amplifyBySubsampling(DpBudget budget, double samplingRate) {
    Preconditions.checkProbabilityPositive("samplingRate", samplingRate);
    double eps = Math.log1p(samplingRate * Math.expm1(budget.epsilon()));
    double delta = Math.min(budget.delta(), Math.nextUp(samplingRate * budget.delta()));
    return new DpBudget(Math.min(budget.epsilon(), up(eps)), delta);
  }

  private static double up(double x) {
    return Math.nextUp(x * (1 + MARGIN));
  }
}
