package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.Label;
import dev.secpe.core.report.NoiseMode;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.evaluation.FrechetDistance;
import java.util.List;
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
    // One seed (the quick demo): the value alone, no "± 0.00" that looks like a measured spread.
    assertThat(DemoSummary.Stat.of(new double[] {7}).format(2)).isEqualTo("7.00");
    assertThat(DemoSummary.Stat.of(new double[] {Double.NaN, Double.NaN}).format(3)).isEqualTo("–");
  }

  private static DemoResult run(long seed, List<Double> fid, List<Double> fidelity) {
    PrivacyReport report = PrivacyReport.builder("augpe").noise(NoiseMode.NONE).build();
    return new DemoResult("augpe", Double.POSITIVE_INFINITY, seed, report, fid, fidelity, fidelity, fid,
        fid.get(fid.size() - 1), 0.5, 0.02, 0.9, 0.8, 10, new double[0], new int[0], List.of(), 100, 0,
        new FrechetDistance.Parts(0, 0, 1, 1), 0);
  }

  @Test
  void perRoundFiguresAreMeansOverSeedsAndTheirTrendIsStrict() {
    DemoSummary s = new DemoSummary("augpe", Double.POSITIVE_INFINITY, List.of(
        run(1, List.of(0.030, 0.025, 0.010), List.of(0.50, 0.55, 0.60)),
        run(2, List.of(0.010, 0.020, 0.012), List.of(0.52, 0.53, 0.58))));
    // round means: FID 0.020, 0.0225, 0.011 (round 1 rises); fidelity 0.51, 0.54, 0.59 (rising).
    List<DemoSummary.Stat> fid = s.fidPerRound();
    assertThat(fid.get(0).mean()).isCloseTo(0.020, within(1e-12));
    assertThat(fid.get(1).mean()).isCloseTo(0.0225, within(1e-12));
    assertThat(fid.get(2).mean()).isCloseTo(0.011, within(1e-12));
    assertThat(fid.get(0).sd()).isCloseTo(Math.sqrt(2) * 0.010, within(1e-12));
    assertThat(s.firstFidelity().mean()).isCloseTo(0.51, within(1e-12));
    assertThat(s.fidelity().mean()).isCloseTo(0.59, within(1e-12));
  }

  @Test
  void theChangeFromTheFirstRoundToTheLastIsPairedBySeed() {
    // Seed 1: FID 0.030 -> 0.010 (-0.020); seed 2: 0.010 -> 0.012 (+0.002): mean -0.009,
    // sd sqrt(((-0.011)^2 + 0.011^2) / 1) = 0.011 * sqrt(2).
    DemoSummary s = new DemoSummary("augpe", Double.POSITIVE_INFINITY, List.of(
        run(1, List.of(0.030, 0.025, 0.010), List.of(0.50, 0.55, 0.60)),
        run(2, List.of(0.010, 0.020, 0.012), List.of(0.52, 0.53, 0.58))));
    DemoSummary.Stat c = s.firstToLast(DemoResult::fidPerRound);
    assertThat(c.mean()).isCloseTo(-0.009, within(1e-12));
    assertThat(c.sd()).isCloseTo(0.011 * Math.sqrt(2), within(1e-12));
    // t(0.975, 1) = 12.706: the interval -0.009 +- 12.706 * 0.011 covers zero.
    assertThat(DemoSummary.verdict(c)).isEqualTo("no clear change");
  }

  @Test
  void aVerdictNeedsSeveralSeedsAndAnIntervalThatExcludesZero() {
    // n = 5, sd 0.001: half-width 2.776 * 0.001 / sqrt(5) = 0.0012415.
    assertThat(DemoSummary.verdict(new DemoSummary.Stat(-0.0013, 0.001, 5))).isEqualTo("falls");
    assertThat(DemoSummary.verdict(new DemoSummary.Stat(-0.0012, 0.001, 5))).isEqualTo("no clear change");
    assertThat(DemoSummary.verdict(new DemoSummary.Stat(0.0013, 0.001, 5))).isEqualTo("rises");
    // One seed: whatever the size of the change, no verdict (the seed decides its sign).
    assertThat(DemoSummary.verdict(new DemoSummary.Stat(-0.5, 0, 1))).isEqualTo("no verdict from one seed");
    assertThat(DemoSummary.verdict(new DemoSummary.Stat(Double.NaN, Double.NaN, 3))).isEqualTo("–");
    // The table's quantiles: df 1, 4, 30 and beyond.
    assertThat(DemoSummary.t975(1)).isEqualTo(12.706);
    assertThat(DemoSummary.t975(4)).isEqualTo(2.776);
    assertThat(DemoSummary.t975(30)).isEqualTo(2.042);
    assertThat(DemoSummary.t975(31)).isEqualTo(1.96);
  }

  /** By hand: shares (1/2, 1/2, 0) against (3/4, 0, 1/4): (1/4 + 1/2 + 1/4) / 2 = 1/2. */
  @Test
  void labelDistanceIsTheTotalVariationBetweenLabelShares() {
    Label x = Label.of("x");
    Label y = Label.of("y");
    Label z = Label.of("z");
    assertThat(DemoRunner.labelDistance(List.of(x, x, y, y), List.of(x, x, x, z))).isCloseTo(0.5, within(1e-15));
    assertThat(DemoRunner.labelDistance(List.of(x, y), List.of(y, x, y, x))).isZero();
  }
}
