package dev.secpe.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Budgets at the edge: refused with a message naming the values, never a numerical failure. */
class BudgetLimitsTest {

  // fault: an epsilon so large that it protects nothing (mu above 1e6, e.g. epsilon 1e300)
  // holds: `IllegalArgumentException` naming epsilon and delta (before: `ArithmeticException: mu diverges`)
  @Test
  void anEpsilonThatProtectsNothingIsRefusedNamingItself() {
    // delta(eps; mu) at mu = 1e6 still meets delta for eps = 1e300: mu would have to exceed any
    // bound. Before: ArithmeticException "mu diverges".
    assertThatThrownBy(() -> Gdp.muFor(new DpBudget(1e300, 1e-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("epsilon=1.0E300")
        .hasMessageContaining("delta=1.0E-5")
        .hasMessageContaining("protects nothing");
  }

  @Test
  void aLargeButMeaningfulEpsilonStillSolves() {
    // mu-GDP implies (eps, delta) with delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2):
    // eps = 1e6 at delta 1e-5 needs mu around sqrt(2 eps) (about 1414), well below the limit.
    double mu = Gdp.muFor(new DpBudget(1e6, 1e-5)).mu();
    assertThat(mu).isBetween(1000.0, 2000.0);
    assertThat(Gdp.deltaAt(new GdpMu(mu), 1e6)).isLessThanOrEqualTo(1e-5);
  }

  @Test
  void aDeltaOfOneOverNOrMoreIsNamedWithTheCount() {
    assertThat(DpBudget.deltaAboveOneOverN(0.5, 30)).get().asString()
        .startsWith("delta=0.5 is not below 1/N = " + (1.0 / 30) + " (N = 30 private records)")
        .contains("1/(N ln N) = " + 1.0 / (30 * Math.log(30)));
    assertThat(DpBudget.deltaAboveOneOverN(0.01, 100)).isPresent(); // exactly 1/N
    assertThat(DpBudget.deltaAboveOneOverN(Math.nextDown(0.01), 100)).isEmpty();
    assertThat(DpBudget.deltaAboveOneOverN(0.0, 1)).isEmpty();
    assertThat(DpBudget.deltaAboveOneOverN(1e-300, 1)).isEmpty();
    assertThatThrownBy(() -> DpBudget.deltaAboveOneOverN(1e-5, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("N=0");
  }

  /** Warned exactly when delta * N >= 1 (up to the rounding of 1/N). */
  @Property(tries = 300)
  void theLargeDeltaWarningIsExactlyDeltaTimesNAtLeastOne(
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double delta,
      @ForAll @LongRange(min = 1, max = 10_000_000) long n) {
    assertThat(DpBudget.deltaAboveOneOverN(delta, n).isPresent()).isEqualTo(delta >= 1.0 / n);
    // monotone: a larger delta or a larger N is never warned about less
    if (DpBudget.deltaAboveOneOverN(delta, n).isPresent()) {
      assertThat(DpBudget.deltaAboveOneOverN(Math.min(Math.nextDown(1.0), delta * 2), n)).isPresent();
      assertThat(DpBudget.deltaAboveOneOverN(delta, n * 2)).isPresent();
    }
  }

  /**
   * The default delta is warned about below 100 records (1/(2 ln 2) = 0.7213 at N = 2, the
   * quick start's two records; 1/(99 ln 99) = 2.198e-3 at N = 99), never from 100 on
   * (1/(100 ln 100) = 2.171e-3), and never for a delta the caller chose.
   */
  @Test
  void theDefaultDeltaIsWarnedAboutBelowAHundredRecords() {
    assertThat(DpBudget.defaultDeltaTooLarge(1 / (2 * Math.log(2)), 2)).get().asString()
        .contains("1/(N ln N) = 0.7213").contains("N = 2 private records").contains("below N = 100");
    assertThat(DpBudget.defaultDeltaTooLarge(DpBudget.deltaForDatasetSize(99), 99)).isPresent();
    assertThat(DpBudget.deltaForDatasetSize(99)).isCloseTo(2.198e-3, offset(1e-6));
    assertThat(DpBudget.defaultDeltaTooLarge(DpBudget.deltaForDatasetSize(100), 100)).isEmpty();
    assertThat(DpBudget.defaultDeltaTooLarge(1e-5, 2)).isEmpty(); // chosen, not the default
    assertThat(DpBudget.defaultDeltaTooLarge(DpBudget.deltaForDatasetSize(2), 1)).isPresent(); // N = 1: its default is N = 2's
  }
}
