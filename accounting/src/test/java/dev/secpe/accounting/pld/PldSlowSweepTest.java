package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Slow sweeps (run with -Pslow): finer grids and longer compositions. */
@Tag("slow")
class PldSlowSweepTest {

  @Test
  void fineGridGaussianAgreesWithClosedFormAtDeltaOneInAHundredThousand() {
    for (String mu : new String[] {"0.5", "1"}) {
      for (int t : new int[] {1, 10, 100}) {
        double exact = ReferenceValues.get("gaussian_eps mu=" + mu + " T=" + t + " delta=1e-5");
        double eps = PrivacyLossDistribution
            .gaussian(1 / Double.parseDouble(mu), 1, PldOptions.withInterval(1e-4))
            .selfCompose(t).epsilon(1e-5);
        assertThat(eps).isGreaterThanOrEqualTo(exact);
        // h = 1e-3 gives <= 6e-7 relative; ten times finer must do better than 2e-7
        assertThat((eps - exact) / exact).isLessThan(2e-7);
      }
    }
  }

  @Test
  void longSubsampledCompositionsStayBelowRdp() {
    // the PLD is tight and RDP a valid upper bound: PLD eps <= RDP eps, both growing in T
    double prev = 0;
    for (int t : new int[] {100, 1000, 10000}) {
      double pld = PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 0.01)
          .selfCompose(t).epsilon(1e-6);
      double rdp = RdpAccountant.epsilon(0.01, 1.0, t, 1e-6);
      assertThat(pld).isLessThanOrEqualTo(rdp).isGreaterThan(prev);
      prev = pld;
    }
  }
}
