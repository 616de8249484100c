package dev.secpe.evolution.ctcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** CTCL's James-Stein pull of the noisy topic histogram towards the public one. */
class HistogramShrinkageTest {

  @Test
  void theFactorIsTheCalculatedJamesSteinOne() {
    // noisy total 40, public shares 1/4 each: prior 10 per bin; differences (10, -10, 5, -5),
    // |d|^2 = 250; B - 2 = 2, sigma^2 = 25: w = 1 - 50/250 = 0.8.
    double[] out = CTCLMethod.shrunkToPublic(new double[] {20, 0, 15, 5}, new double[] {3, 3, 3, 3}, 5);
    assertThat(out).containsExactly(new double[] {18, 2, 14, 6}, within(1e-12));
  }

  @Test
  void noiseAsLargeAsTheDifferencesLeavesThePublicDistribution() {
    double[] out = CTCLMethod.shrunkToPublic(new double[] {20, 0, 15, 5}, new double[] {1, 2, 3, 4}, 50);
    assertThat(out).containsExactly(new double[] {4, 8, 12, 16}, within(1e-12));
  }

  @Test
  void withoutNoiseOrWithoutPublicCountsNothingChanges() {
    double[] h = {20, 0, 15, 5};
    assertThat(CTCLMethod.shrunkToPublic(h, new double[] {1, 2, 3, 4}, 0)).containsExactly(h);
    assertThat(CTCLMethod.shrunkToPublic(h, new double[4], 5)).containsExactly(h);
    assertThat(CTCLMethod.shrunkToPublic(new double[] {3, 1}, new double[] {1, 1}, 5)).containsExactly(3, 1);
  }

  /** The total is kept and every bin moves towards its prior, never past it. */
  @Property(tries = 300)
  void keepsTheTotalAndMovesEachBinTowardsThePrior(
      @ForAll @Size(min = 3, max = 30) java.util.List<@DoubleRange(min = -20, max = 200) Double> noisy,
      @ForAll @DoubleRange(min = 0.1, max = 50) double sigma) {
    double[] h = noisy.stream().mapToDouble(Double::doubleValue).toArray();
    double total = java.util.Arrays.stream(h).sum();
    if (!(total > 1)) {
      return;
    }
    double[] pub = new double[h.length];
    for (int i = 0; i < pub.length; i++) {
      pub[i] = 1 + i % 4;
    }
    double pubTotal = java.util.Arrays.stream(pub).sum();
    double[] out = CTCLMethod.shrunkToPublic(h, pub, sigma);
    assertThat(java.util.Arrays.stream(out).sum()).isCloseTo(total, within(1e-9 * Math.max(1, total)));
    for (int i = 0; i < h.length; i++) {
      double prior = total * pub[i] / pubTotal;
      assertThat(Math.abs(out[i] - prior)).isLessThanOrEqualTo(Math.abs(h[i] - prior) + 1e-9);
      assertThat((out[i] - prior) * (h[i] - prior)).isGreaterThanOrEqualTo(-1e-9);
    }
  }
}
