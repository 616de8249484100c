package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.cli.demo.UtilityTable.Reading;
import dev.secpe.core.report.NoiseMode;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.evaluation.FrechetDistance;
import java.util.List;
import org.junit.jupiter.api.Test;

class UtilityTableTest {

  private static DemoResult run(String method, long seed, List<Double> fid, List<Double> kid) {
    PrivacyReport report = PrivacyReport.builder(method).noise(NoiseMode.NONE).build();
    List<Double> fidelity = fid.stream().map(f -> 0.5).toList();
    return new DemoResult(method, Double.POSITIVE_INFINITY, seed, report, fid, fidelity, fidelity, kid,
        fid.get(fid.size() - 1), 0.5, 0.02, 0.9, 0.8, 10, new double[0], new int[0], List.of(), 100, 2,
        new FrechetDistance.Parts(0, 0, 1, 1), 0);
  }

  /**
   * Baseline FID 0.079 / 0.081 and KID 0.49e-3 / 0.51e-3 (two seeds). "a" ends far below both and
   * below its first round on every seed: yes, yes. "b" rises from its first round by 0.015 on both
   * seeds (no spread: the sign decides): no; against the public sample its FID is 0.004 lower, t =
   * -2.83 on Welch's 2 degrees of freedom (critical 4.30), and its KID 0.1e-3 higher, t = 10 on 1
   * (critical 12.71): level on both.
   */
  @Test
  void theVerdictsTestTheSeedsAgainstTheBaselineAndTheFirstRound() {
    List<DemoSummary> summary = DemoSummary.of(List.of(
        run("a", 1, List.of(0.070, 0.050), List.of(4e-4, 3e-4)),
        run("a", 2, List.of(0.072, 0.054), List.of(4.2e-4, 3.2e-4)),
        run("b", 1, List.of(0.060, 0.075), List.of(5e-4, 6e-4)),
        run("b", 2, List.of(0.062, 0.077), List.of(5e-4, 6e-4))));
    List<DemoRunner.Baseline> baseline =
        List.of(new DemoRunner.Baseline(1, 0.079, 0.49e-3), new DemoRunner.Baseline(2, 0.081, 0.51e-3));
    String md = UtilityTable.markdown("corpus x", "bin/secpe demo --corpus x", summary, baseline, 0.02, 100);
    assertThat(md).contains("FID 0.0800 ± 0.0014 and KID×10³ 0.500 ± 0.014");
    // a: paired change -0.020, -0.018: mean -0.0190, se 0.0014 / sqrt(2) = 0.0010.
    assertThat(md).contains("| a | inf | 0.0710 ± 0.0014 | 0.0520 ± 0.0028 | -0.0190 ± 0.0010 |")
        .containsPattern("\\| a \\|.*\\| yes \\| yes \\|");
    assertThat(md).containsPattern("\\| b \\|.*\\| \\+0\\.0150 ± 0\\.0000 \\|.*\\| level \\| \\*\\*no\\*\\* \\|");
  }

  /**
   * Paired differences {m - 1, m, m + 1}: sd 1, t = m sqrt(3) against Student's t on 2 degrees of
   * freedom, whose two-sided 5% point is 4.303 (published tables): m = -2.4 gives t = -4.16, level;
   * m = -2.6 gives t = -4.50, lower.
   */
  @Test
  void aPairedChangeCountsOnlyBeyondStudentsCriticalValue() {
    assertThat(UtilityTable.paired(new double[] {-3.4, -2.4, -1.4})).isEqualTo(Reading.LEVEL);
    assertThat(UtilityTable.paired(new double[] {-3.6, -2.6, -1.6})).isEqualTo(Reading.LOWER);
    assertThat(UtilityTable.paired(new double[] {1.6, 2.6, 3.6})).isEqualTo(Reading.HIGHER);
    // A mean gain inside the spread of the seeds (t = -0.26) is level, not a gain.
    assertThat(UtilityTable.paired(new double[] {-1.0, 0.8, -0.2})).isEqualTo(Reading.LEVEL);
    // One seed: no spread to test against, the sign decides.
    assertThat(UtilityTable.paired(new double[] {-0.001})).isEqualTo(Reading.LOWER);
  }

  /**
   * Welch: {1, 2, 3} against {4, 5, 6}: difference -3, se sqrt(1/3 + 1/3) = 0.816, t = -3.67 on 4
   * degrees of freedom (critical 2.776): lower. Against {3, 4, 5}: t = -2.45: level.
   */
  @Test
  void againstThePublicSampleTheTwoSetsOfSeedsAreComparedByWelch() {
    assertThat(UtilityTable.unpaired(new double[] {1, 2, 3}, new double[] {4, 5, 6})).isEqualTo(Reading.LOWER);
    assertThat(UtilityTable.unpaired(new double[] {1, 2, 3}, new double[] {3, 4, 5})).isEqualTo(Reading.LEVEL);
    assertThat(UtilityTable.unpaired(new double[] {4, 5, 6}, new double[] {1, 2, 3})).isEqualTo(Reading.HIGHER);
  }

  @Test
  void theVerdictNamesWhatHolds() {
    assertThat(UtilityTable.verdict(Reading.LOWER, Reading.LOWER)).isEqualTo("yes");
    assertThat(UtilityTable.verdict(Reading.LOWER, Reading.LEVEL)).isEqualTo("FID only");
    assertThat(UtilityTable.verdict(Reading.LEVEL, Reading.LOWER)).isEqualTo("KID only");
    assertThat(UtilityTable.verdict(Reading.LEVEL, Reading.LEVEL)).isEqualTo("level");
    assertThat(UtilityTable.verdict(Reading.LOWER, Reading.HIGHER)).isEqualTo("**no**");
  }
}
