package dev.secpe.accounting.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.RefNormal;
import dev.secpe.accounting.SecretBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The contribution-bounded mode of {@link SecretNoise}: sigma from (p, r, K) alone. */
class SecretCapTest {

  private static final double SQRT2 = Math.sqrt(2);
  private static final SecretBudget BUDGET = new SecretBudget(1e-4, 1e-3);

  private static SecretNoiseResult capped(List<int[]> records, int secrets, int k) {
    return SecretNoise.builder()
        .records(records, secrets)
        .uniformBudget(BUDGET)
        .shiftMultiplier(SQRT2)
        .secretCap(k)
        .solve();
  }

  @Test
  void sigmaIsTheClosedFormOfAGaussianShiftOfCTimesK() {
    for (int k : new int[] {1, 2, 5, 20}) {
      SecretNoiseResult r = capped(List.of(new int[] {0}, new int[0]), 1, k);
      // SecPE eq. (4) for a Gaussian shift c k / sigma: r = 1 - Phi(PhiInv(1 - p) - c k / sigma),
      // so the least sigma is c k / (PhiInv(1 - p) - PhiInv(1 - r)) (Hipparchus quantiles).
      double exact = SQRT2 * k / (RefNormal.upperQuantile(1e-4) - RefNormal.upperQuantile(1e-3));
      assertThat(r.sigma()).as("k=%d", k).isBetween(exact * (1 - 1e-9), exact * (1 + 1e-4));
      assertThat(r.secretCap()).isEqualTo(k);
    }
  }

  @Test
  void theIssuesExampleGivesOneSigmaWithAndWithoutSecretA() {
    // Paper mode: {a,b}, {b,c}, {a,c} plus 100 records without secrets give 2.374; with a
    // removed from them ({b}, {b,c}, {c}), 1.867. Capped at K = 2: one sigma, every record sampled.
    List<int[]> with = new ArrayList<>(List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2}));
    List<int[]> without = new ArrayList<>(List.of(new int[] {1}, new int[] {1, 2}, new int[] {2}));
    for (int i = 0; i < 100; i++) {
      with.add(new int[0]);
      without.add(new int[0]);
    }
    SecretNoiseResult a = capped(with, 3, 2);
    SecretNoiseResult b = capped(without, 3, 2);
    assertThat(a.sigma()).isEqualTo(b.sigma());
    assertThat(a.rho()).containsOnly(1.0);
    assertThat(b.rho()).containsOnly(1.0);
    // The paper's mode on the same pair: sigma moves with the data.
    SecretNoiseResult pa = SecretNoise.builder().records(with, 3).uniformBudget(BUDGET).shiftMultiplier(SQRT2).solve();
    SecretNoiseResult pb = SecretNoise.builder().records(without, 3).uniformBudget(BUDGET).shiftMultiplier(SQRT2).solve();
    assertThat(pa.sigma()).isNotEqualTo(pb.sigma());
  }

  /** Any incidence structure within the cap gets the same sigma: (p, r, K) decide it alone. */
  @Property(tries = 60)
  void sigmaDependsOnTheCapAloneNotOnWhoHoldsWhat(
      @ForAll @IntRange(min = 1, max = 40) int n,
      @ForAll @IntRange(min = 1, max = 6) int m,
      @ForAll @IntRange(min = 1, max = 4) int k,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] holders = new int[m];
    List<int[]> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      java.util.TreeSet<Integer> s = new java.util.TreeSet<>();
      for (int h = rnd.nextInt(3); h > 0; h--) {
        int j = rnd.nextInt(m);
        if (holders[j] < k && s.add(j)) {
          holders[j]++;
        }
      }
      records.add(s.stream().mapToInt(Integer::intValue).toArray());
    }
    SecretNoiseResult r = capped(records, m, k);
    SecretNoiseResult one = capped(List.of(new int[] {0}), 1, k);
    assertThat(r.sigma()).isEqualTo(one.sigma());
    assertThat(r.rho()).containsOnly(1.0);
  }

  @Test
  void dataBeyondTheCapIsRefusedWithoutSayingHowManyHoldTheSecret() {
    assertThatThrownBy(() -> capped(List.of(new int[] {0}, new int[] {0}, new int[] {0}), 1, 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("secretCap=2 is exceeded by secret 0: bound the data first (PrivateTexts.capSecrets)");
    assertThatThrownBy(() -> SecretNoise.builder().secretCap(0)).hasMessageContaining("secretCap");
  }
}
