package dev.secpe.evolution.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class AllocationTest {

  @Test
  void hamiltonExample() {
    // 10 seats for 0.45/0.35/0.20: quotas 4.5/3.5/2.0 -> floors 4/3/2, one left for the largest
    // remainder (0.5 tie between the first two goes to the lower index).
    assertThat(Allocation.largestRemainder(new double[] {45, 35, 20}, 10)).containsExactly(5, 3, 2);
  }

  @Test
  void earlyBinsAreNotOverAllocated() {
    // Ceil-per-bin (the reference CTCL code's habit) would give 1+1+1+1 = 4 > 3.
    assertThat(Allocation.largestRemainder(new double[] {1, 1, 1, 1}, 3)).containsExactly(1, 1, 1, 0);
  }

  @Property
  void sharesSumToTotalAndStayWithinOneOfTheQuota(
      @ForAll @Size(min = 1, max = 30) double[] raw, @ForAll @IntRange(min = 0, max = 100000) int total) {
    double[] w = Arrays.stream(raw).map(x -> Double.isFinite(x) ? Math.abs(x) % 1000 : 1).toArray();
    int[] s = Allocation.largestRemainder(w, total);
    assertThat(Arrays.stream(s).sum()).isEqualTo(total);
    double sum = Arrays.stream(w).sum();
    for (int i = 0; i < w.length; i++) {
      double quota = sum > 0 ? total * w[i] / sum : (double) total / w.length;
      // Rounding of the quota itself may differ in the last bit: allow for it.
      assertThat((double) s[i]).isBetween(Math.floor(quota - 1e-6), Math.floor(quota + 1e-6) + 1);
    }
  }

  @Property
  void zeroWeightGetsNothingWhenSomeWeightIsPositive(
      @ForAll @DoubleRange(min = 0.01, max = 10) double a, @ForAll @IntRange(min = 0, max = 500) int total) {
    assertThat(Allocation.largestRemainder(new double[] {a, 0.0, -3.0}, total)).containsExactly(total, 0, 0);
  }
}
