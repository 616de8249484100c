package dev.secpe.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Budgets at the edge: refused with a message naming the values, never a numerical failure. */
class BudgetLimitsTest {

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
}
