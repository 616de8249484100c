package dev.secpe.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code System.out.println(report)} shows a person (issue 53: it was a 3 KB record dump). */
class PrivacyReportSummaryTest {

  @Test
  void toStringIsAShortSummaryAPersonReads() {
    PrivacyReport r =
        PrivacyReport.builder("secpe")
            .syntheticRecords(20)
            .privateRecords(2)
            .mu(new GdpMu(0.7309))
            .dp(new DpBudget(0.0, 1 / (2 * Math.log(2))))
            .secretBudget(new SecretBudget(1e-4, 1e-3))
            .sigma(3.125)
            .mechanisms(List.of(new Release("secpe/secret-clusters", "Gaussian", "counts", 1.0, 3.125,
                new PrivacyCost.Gaussian(3.125))))
            .warning("the default delta is large")
            .guarantee(new PrivacyReport.Guarantee("(p, r)-secret protection of each detected secret", "secpe", false))
            .build();
    assertThat(r.toString()).isEqualTo(
        "secpe run: 20 synthetic texts from 2 private records\n"
            + "guarantee: (p, r) = (0.0001, 0.001) for every secret; mu = 0.7309 (GDP); (epsilon, delta) = (0, 0.7213)\n"
            + "what it covers: (p, r)-secret protection of each detected secret\n"
            + "releases: 1, noise multiplier 3.125, secure noise\n"
            + "warning: the default delta is large\n"
            + "(every release, deviation, provider and timing: toJson())");
    assertThat(r.toString()).doesNotContain("Optional");
  }

  @Test
  void aNonPrivateRunSaysItProtectsNothing() {
    PrivacyReport r = PrivacyReport.builder("augpe").syntheticRecords(5).noise(NoiseMode.REPRODUCIBLE_NON_PRIVATE).build();
    assertThat(r.toString()).isEqualTo(
        "augpe run: 5 synthetic texts\n"
            + "guarantee: none (non-private: nothing is protected)\n"
            + "releases: 0, reproducible noise (NOT private)\n"
            + "(every release, deviation, provider and timing: toJson())");
  }
}
