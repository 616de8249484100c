package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DemoSummaryTest {

  @Test
  void statIsTheMeanAndTheSampleStandardDeviation() {
    // 1, 2, 3, 4: mean 2.5, sample variance 5/3, sd 1.2909944.
    DemoSummary.Stat s = DemoSummary.Stat.of(new double[] {1, 2, 3, 4});
    assertThat(s.mean()).isEqualTo(2.5);
    assertThat(s.sd()).isCloseTo(Math.sqrt(5.0 / 3.0), within(1e-12));
    assertThat(s.format(2)).isEqualTo("2.50 ± 1.29");
    assertThat(DemoSummary.Stat.of(new double[] {7}).sd()).isZero();
    assertThat(DemoSummary.Stat.of(new double[] {Double.NaN, Double.NaN}).format(3)).isEqualTo("–");
  }
}
