package dev.secpe.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** Safe side and monotonicity of {@link Calibration}. */
class CalibrationPropertiesTest {

  @Property
  void analyticGaussianMeetsTheBudgetAndIsTight(
      @ForAll @DoubleRange(min = 0.01, max = 20) double eps,
      @ForAll @DoubleRange(min = -14, max = -1) double logDelta,
      @ForAll @DoubleRange(min = 0.01, max = 100) double sensitivity) {
    double delta = Math.pow(10, logDelta);
    double sigma = Calibration.analyticGaussianSigma(new DpBudget(eps, delta), sensitivity);
    assertThat(Gdp.deltaAt(new GdpMu(sensitivity / sigma), eps)).isLessThanOrEqualTo(delta);
    assertThat(Gdp.deltaAt(new GdpMu(sensitivity / (sigma * (1 - 1e-8))), eps)).isGreaterThan(delta);
  }

  @Property
  void classicGaussianIsValidAndNeverBelowAnalytic(
      @ForAll @DoubleRange(min = 0.01, max = 0.99) double eps,
      @ForAll @DoubleRange(min = -14, max = -2) double logDelta) {
    DpBudget b = new DpBudget(eps, Math.pow(10, logDelta));
    double classic = Calibration.classicGaussianSigma(b, 1);
    assertThat(classic).isGreaterThanOrEqualTo(Calibration.analyticGaussianSigma(b, 1));
    assertThat(Gdp.deltaAt(new GdpMu(1 / classic), eps)).isLessThanOrEqualTo(b.delta());
  }

  @Property
  void analyticSigmaIsMonotone(
      @ForAll @DoubleRange(min = 0.05, max = 10) double eps,
      @ForAll @DoubleRange(min = 0, max = 2) double deps,
      @ForAll @DoubleRange(min = -12, max = -2) double logDelta,
      @ForAll @DoubleRange(min = 0, max = 1) double dLog) {
    double delta = Math.pow(10, logDelta);
    double s = Calibration.analyticGaussianSigma(new DpBudget(eps, delta), 1);
    assertThat(Calibration.analyticGaussianSigma(new DpBudget(eps + deps, delta), 1))
        .isLessThanOrEqualTo(s);
    assertThat(Calibration.analyticGaussianSigma(new DpBudget(eps, delta * Math.pow(10, dLog)), 1))
        .isLessThanOrEqualTo(s);
  }

  @Property
  void peNoiseMeetsTheBudgetAndGrowsWithRounds(
      @ForAll @DoubleRange(min = 0.1, max = 10) double eps,
      @ForAll @DoubleRange(min = -12, max = -3) double logDelta,
      @ForAll @IntRange(min = 1, max = 100) int rounds) {
    DpBudget b = new DpBudget(eps, Math.pow(10, logDelta));
    double sigma = Calibration.privateEvolutionNoise(b, rounds).sigma();
    assertThat(Gdp.deltaAt(Gdp.compose(new GdpMu(1 / sigma), rounds), eps))
        .isLessThanOrEqualTo(b.delta());
    assertThat(Calibration.privateEvolutionNoise(b, rounds + 1).sigma()).isGreaterThan(sigma);
  }

  @Property
  void subsamplingAmplifiesAndIsMonotoneInRate(
      @ForAll @DoubleRange(min = 0, max = 10) double eps,
      @ForAll @DoubleRange(min = 0, max = 0.5) double delta,
      @ForAll @net.jqwik.api.constraints.Scale(6) @DoubleRange(min = 0.0001, max = 1) double q,
      @ForAll @DoubleRange(min = 0, max = 1) double more) {
    DpBudget b = new DpBudget(eps, delta);
    DpBudget a = Calibration.amplifyBySubsampling(b, q);
    assertThat(a.epsilon()).isLessThanOrEqualTo(eps);
    assertThat(a.delta()).isLessThanOrEqualTo(delta);
    assertThat(a.epsilon()).isGreaterThanOrEqualTo(Math.min(eps, Math.log1p(q * Math.expm1(eps))));
    assertThat(a.delta()).isGreaterThanOrEqualTo(Math.min(delta, q * delta));
    DpBudget a2 = Calibration.amplifyBySubsampling(b, Math.min(1, q + more));
    assertThat(a2.epsilon()).isGreaterThanOrEqualTo(a.epsilon());
  }

  @Example
  void closedForms() {
    // Laplace: b = Delta / eps
    assertThat(Calibration.laplaceScale(0.5, 2)).isBetween(4.0, 4.0 * (1 + 1e-11));
    // classic Gaussian at eps = 0.5, delta = 1e-5: sqrt(2 ln 125000) / 0.5
    double expected = Math.sqrt(2 * Math.log(1.25e5)) / 0.5;
    assertThat(Calibration.classicGaussianSigma(new DpBudget(0.5, 1e-5), 1))
        .isBetween(expected, expected * (1 + 1e-11));
    // DPGA appendix B.2: eps_svt = 1 gives per run Lap(2/(1/2)) = Lap(4) and Lap(4/(1/2)) = Lap(8)
    Calibration.SvtScales s = Calibration.dpgaLengthRangeSvt(1.0);
    assertThat(s.thresholdScale()).isBetween(4.0, 4.0 * (1 + 1e-11));
    assertThat(s.queryScale()).isBetween(8.0, 8.0 * (1 + 1e-11));
    assertThat(s.epsilon()).isEqualTo(0.5);
    // subsampling: eps = 1, q = 0.01 gives ln(1 + 0.01 (e - 1)) = 0.0170368632...
    DpBudget a = Calibration.amplifyBySubsampling(new DpBudget(1, 1e-5), 0.01);
    assertThat(a.epsilon()).isBetween(0.01703686, 0.01703687);
    assertThat(a.delta()).isBetween(1e-7, 1e-7 * (1 + 1e-12));
  }
}
