package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.report.NoiseMode;
import dev.secpe.core.report.PrivacyReport;
import java.util.List;
import org.junit.jupiter.api.Test;

class UtilityTableTest {

  private static DemoResult run(String method, long seed, List<Double> fid, List<Double> kid) {
    PrivacyReport report = PrivacyReport.builder(method).noise(NoiseMode.NONE).build();
    List<Double> fidelity = fid.stream().map(f -> 0.5).toList();
    return new DemoResult(method, Double.POSITIVE_INFINITY, seed, report, fid, fidelity, fidelity, kid,
        fid.get(fid.size() - 1), 0.5, 0.02, 0.9, 0.8, 10, new double[0], new int[0], List.of(), 100, 2);
  }

  /**
   * Baseline FID 0.080 and KID 0.5e-3 (means of two seeds). "a" ends below both and below its first
   * round: yes, yes. "b" ends below the baseline on FID only and rises from its first round on
   * both: FID only, no. Judged on the means over seeds.
   */
  @Test
  void theVerdictsCompareTheMeansWithTheBaselineAndTheFirstRound() {
    List<DemoSummary> summary = DemoSummary.of(List.of(
        run("a", 1, List.of(0.070, 0.050), List.of(4e-4, 3e-4)),
        run("a", 2, List.of(0.072, 0.054), List.of(4.2e-4, 3.2e-4)),
        run("b", 1, List.of(0.060, 0.075), List.of(5e-4, 6e-4)),
        run("b", 2, List.of(0.062, 0.077), List.of(5e-4, 6e-4))));
    List<DemoRunner.Baseline> baseline =
        List.of(new DemoRunner.Baseline(1, 0.079, 0.49e-3), new DemoRunner.Baseline(2, 0.081, 0.51e-3));
    String md = UtilityTable.markdown("corpus x", "bin/secpe demo --corpus x", summary, baseline, 0.02, 100);
    assertThat(md).contains("FID 0.0800 ± 0.0014 and KID×10³ 0.500 ± 0.014");
    assertThat(md).contains("| a | inf | 0.0710 ± 0.0014 | 0.0520 ± 0.0028 |")
        .containsPattern("\\| a \\|.*\\| yes \\| yes \\|");
    assertThat(md).containsPattern("\\| b \\|.*\\| FID only \\| \\*\\*no\\*\\* \\|");
  }
}
