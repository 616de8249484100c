package dev.secpe.accounting.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.Sensitivity;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class PrivacyPlanTest {

  private static Release gaussian(String id, double z) {
    return Release.gaussian(id, "a histogram", z, Sensitivity.l2(1.0));
  }

  /**
   * k Gaussian releases of multipliers z_i compose to mu = sqrt(sum 1/z_i^2) GDP (Dong, Roth, Su
   * 2019, Cor. 3.3): the plan builds under a GDP budget exactly when that closed form is within it
   * (cases within 1e-6 of the boundary are skipped: the ledger rounds on the safe side).
   */
  @Property(tries = 50)
  void aGaussianPlanFitsAGdpBudgetExactlyWhenTheClosedFormDoes(
      @ForAll @Size(min = 1, max = 8) List<@DoubleRange(min = 0.3, max = 30) Double> multipliers,
      @ForAll @DoubleRange(min = 0.05, max = 6) double mu) {
    double sum = 0;
    for (double z : multipliers) {
      sum += 1 / (z * z);
    }
    double composed = Math.sqrt(sum);
    Assume.that(Math.abs(composed - mu) > 1e-6 * mu);
    PrivacyPlan.Builder b = PrivacyPlan.limitedTo(new GdpMu(mu));
    for (int i = 0; i < multipliers.size(); i++) {
      b.calibrated(gaussian("r" + i, multipliers.get(i)));
    }
    if (composed < mu) {
      PrivacyPlan plan = b.build();
      assertThat(plan.calibratedReleases()).hasSize(multipliers.size());
      // The run-time ledger admits the plan, in order, and then composes to the closed form.
      PrivacyLedger ledger = plan.newLedger();
      plan.calibratedReleases().forEach(ledger::charge);
      assertThat(ledger.gdp().orElseThrow().mu()).isCloseTo(composed, org.assertj.core.api.Assertions.within(1e-9 * composed));
      plan.checkFollowed(ledger.releases(), List.of());
    } else {
      assertThatThrownBy(b::build)
          .isInstanceOf(BudgetExceededException.class)
          .hasMessageContaining("does not fit the budget");
    }
  }

  /** Any release the plan does not name exactly is refused when charged, and nothing is recorded. */
  @Property(tries = 40)
  void theLedgerAdmitsOnlyPlannedReleases(
      @ForAll @IntRange(min = 1, max = 6) int k,
      @ForAll @DoubleRange(min = 2, max = 20) double z,
      @ForAll @IntRange(min = 0, max = 5) int deviant,
      @ForAll("kinds") String kind) {
    Assume.that(deviant < k);
    PrivacyPlan.Builder b = PrivacyPlan.limitedTo(new DpBudget(1e6, 1e-3));
    for (int i = 0; i < k; i++) {
      b.calibrated(gaussian("r" + i, z));
    }
    b.covered("covered", "r0");
    PrivacyPlan plan = b.build();
    PrivacyLedger ledger = plan.newLedger();
    for (int i = 0; i < deviant; i++) {
      ledger.charge(plan.calibrated("r" + i));
    }
    Release wrong =
        switch (kind) {
          case "unplanned" -> gaussian("r" + k, z);
          case "other noise" -> gaussian("r" + deviant, z * 1.5);
          case "other sensitivity" -> Release.gaussian("r" + deviant, "a histogram", z * 2, Sensitivity.l2(2.0));
          case "covered" -> gaussian("covered", z);
          default -> throw new AssertionError(kind);
        };
    assertThatThrownBy(() -> ledger.charge(wrong))
        .isInstanceOf(IllegalStateException.class)
        .isNotInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("'" + wrong.id() + "'");
    assertThat(ledger.releases()).hasSize(deviant);
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> kinds() {
    return net.jqwik.api.Arbitraries.of("unplanned", "other noise", "other sensitivity", "covered");
  }

  @Example
  void aFinishedRunIsCheckedForMissingAndExtraReleases() {
    PrivacyPlan plan =
        PrivacyPlan.limitedTo(new DpBudget(10, 1e-5))
            .calibrated(gaussian("a", 3))
            .covered("a/round-1", "a")
            .solvedFromData("b", "Gaussian")
            .build();
    PrivacyLedger ledger = plan.newLedger();
    ledger.charge(plan.calibrated("a"));
    ledger.charge(gaussian("b", 4));
    plan.checkFollowed(ledger.releases(), List.of("a/round-1"));
    assertThatThrownBy(() -> plan.checkFollowed(ledger.releases().subList(0, 1), List.of("a/round-1")))
        .hasMessageContaining("missing [b]");
    assertThatThrownBy(() -> plan.checkFollowed(ledger.releases(), Set.of("a/round-1", "a/round-2")))
        .hasMessageContaining("not planned [a/round-2]");
  }

  @Example
  void aSolvedFromDataStepIsGuardedByTheBudgetAndItsMechanism() {
    PrivacyPlan plan = PrivacyPlan.limitedTo(new GdpMu(1.0)).solvedFromData("s", "Gaussian").build();
    assertThatThrownBy(() -> plan.newLedger().charge(Release.laplace("s", "x", 1, Sensitivity.l1(1))))
        .hasMessageContaining("expects mechanism 'Gaussian'");
    // mu = 1/0.5 = 2 > 1: the budget refuses it, as it refuses any release.
    assertThatThrownBy(() -> plan.newLedger().charge(gaussian("s", 0.5)))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(plan.newLedger().charge(gaussian("s", 2)).id()).isEqualTo("s");
  }

  @Example
  void aNonPrivatePlanReleasesNothing() {
    PrivacyPlan plan = PrivacyPlan.nonPrivate();
    assertThat(plan.isPrivate()).isFalse();
    assertThat(plan.steps()).isEmpty();
    assertThatThrownBy(() -> plan.newLedger().charge(gaussian("a", 100)))
        .isInstanceOf(BudgetExceededException.class);
    plan.checkFollowed(List.of(), List.of());
  }

  @Example
  void malformedPlansAreRefusedWithTheirReason() {
    assertThatThrownBy(() -> PrivacyPlan.limitedTo(new GdpMu(1)).build())
        .hasMessageContaining("at least one release");
    assertThatThrownBy(() -> PrivacyPlan.limitedTo(new GdpMu(1)).calibrated(gaussian("a", 5)).calibrated(gaussian("a", 6)))
        .hasMessageContaining("'a' is planned twice");
    assertThatThrownBy(() -> PrivacyPlan.limitedTo(new GdpMu(1)).covered("x", "a"))
        .hasMessageContaining("needs an earlier charged step 'a'");
    assertThatThrownBy(() -> PrivacyPlan.limitedTo(new GdpMu(1)).calibrated(gaussian("a", 5)).calibrated(gaussian("b", 0.5)).build())
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("release 'b'");
    List<String> ids = new ArrayList<>();
    PrivacyPlan.limitedTo(new GdpMu(1)).calibrated(gaussian("a", 5)).build().steps().forEach(s -> ids.add(s.id()));
    assertThat(ids).containsExactly("a");
  }
}
