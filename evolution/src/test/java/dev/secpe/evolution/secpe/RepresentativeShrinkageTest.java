package dev.secpe.evolution.secpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class RepresentativeShrinkageTest {

  @Test
  void isTheWienerFactorOfTheCentreNormAgainstTheNoisePower() {
    // |e|^2 = 1 and v = 1: 1/2; |e|^2 = 0.64 and v = 0.16: 0.8; v = 0: 1.
    assertThat(RepresentativeShrinkage.factors(new double[] {1, 0.64, 0.5}, new double[] {1, 0.16, 0}))
        .containsExactly(new double[] {0.5, 0.8, 1.0}, within(1e-12));
  }

  @Test
  void movesEachCentreAlongItsOffsetFromThePublicCentre() {
    // e = (0.6, 0.8) (norm 1), released (3, 4); d = 2 and sd = 1/sqrt(2) give v = 1, lambda = 1/2:
    // e + (1/2) ((3, 4) - e) = (1.8, 2.4).
    float[][] c = {{3f, 4f}, {0.1f, 0.2f}};
    float[][] pub = {{0.6f, 0.8f}, {1f, 0f}};
    double[] lambda = RepresentativeShrinkage.apply(c, pub, new double[] {Math.sqrt(0.5), 0.0});
    assertThat(lambda).containsExactly(new double[] {0.5, 1.0}, within(1e-7));
    assertThat(c[0][0]).isCloseTo(1.8f, within(1e-6f));
    assertThat(c[0][1]).isCloseTo(2.4f, within(1e-6f));
    assertThat(c[1]).containsExactly(0.1f, 0.2f); // no noise: as released
  }

  @Test
  void aNoiseDominatedCentreFallsBackNearlyToItsPublicCentre() {
    // the demo's case: |e|^2 about 0.7, v = 384 (2 * 2.79 / 7)^2 = 243.9: lambda below 0.003
    double v = 384 * Math.pow(2 * 2.79 / 7, 2);
    assertThat(RepresentativeShrinkage.factors(new double[] {0.7}, new double[] {v})[0]).isLessThan(0.003);
  }

  @Property(tries = 300)
  void factorsLieInTheUnitIntervalFallWithNoiseAndRiseWithSignal(
      @ForAll @DoubleRange(min = 0, max = 10) double signal,
      @ForAll @DoubleRange(min = 0, max = 10) double noise,
      @ForAll @DoubleRange(min = 0.01, max = 5) double more) {
    double base = RepresentativeShrinkage.factors(new double[] {signal}, new double[] {noise})[0];
    double noisier = RepresentativeShrinkage.factors(new double[] {signal}, new double[] {noise + more})[0];
    double stronger = RepresentativeShrinkage.factors(new double[] {signal + more}, new double[] {noise})[0];
    assertThat(base).isBetween(0.0, 1.0);
    assertThat(noisier).isLessThanOrEqualTo(base);
    assertThat(stronger).isGreaterThanOrEqualTo(base);
  }

  @Test
  void refusesNegativeNanOrInfiniteInputs() {
    assertThatThrownBy(() -> RepresentativeShrinkage.factors(new double[] {1}, new double[] {-1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("noisePower=-1.0");
    assertThatThrownBy(() -> RepresentativeShrinkage.factors(new double[] {Double.NaN}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RepresentativeShrinkage.factors(new double[] {1}, new double[] {Double.POSITIVE_INFINITY}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
