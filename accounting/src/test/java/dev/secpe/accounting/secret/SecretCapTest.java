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

  private static SecretNoiseResult capped(List<int[]> records, int secrets, int k, long[] priority) {
    return SecretNoise.builder()
        .records(records, secrets)
        .uniformBudget(BUDGET)
        .shiftMultiplier(SQRT2)
        .secretCap(k, priority)
        .solve();
  }

  private static long[] keys(int n) {
    long[] p = new long[n];
    for (int i = 0; i < n; i++) {
      p[i] = 1000 - i;
    }
    return p;
  }

  @Test
  void sigmaIsTheClosedFormOfAGaussianShiftOfCTimesK() {
    for (int k : new int[] {1, 2, 5, 20}) {
      SecretNoiseResult r = capped(List.of(new int[] {0}, new int[0]), 1, k, keys(2));
      // SecPE eq. (4) for a Gaussian shift c k / sigma: r = 1 - Phi(PhiInv(1 - p) - c k / sigma),
      // so the least sigma is c k / (PhiInv(1 - p) - PhiInv(1 - r)) (Hipparchus quantiles).
      double exact = SQRT2 * k / (RefNormal.upperQuantile(1e-4) - RefNormal.upperQuantile(1e-3));
      assertThat(r.sigma()).as("k=%d", k).isBetween(exact * (1 - 1e-9), exact * (1 + 1e-4));
      assertThat(r.secretCap()).isEqualTo(k);
    }
  }

  @Test
  void theIssuesExampleGivesOneSigmaWithAndWithoutSecretA() {
    // Paper mode: {a,b}, {b,c}, {a,c} plus 100 records without secrets give one sigma; with a's
    // records removed ({b,c} and the 100) another. Capped at K = 2: one sigma.
    List<int[]> with = new ArrayList<>(List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2}));
    List<int[]> without = new ArrayList<>(List.<int[]>of(new int[] {1, 2}));
    for (int i = 0; i < 100; i++) {
      with.add(new int[0]);
      without.add(new int[0]);
    }
    SecretNoiseResult a = capped(with, 3, 2, keys(103));
    SecretNoiseResult b = capped(without, 3, 2, keys(101));
    assertThat(a.sigma()).isEqualTo(b.sigma());
    // Records holding two secrets are never sampled; records holding none always are.
    assertThat(a.rho()[0]).isZero();
    assertThat(a.rho()[1]).isZero();
    assertThat(a.rho()[2]).isZero();
    assertThat(a.rho()[50]).isEqualTo(1.0);
    // The paper's mode on the same pair: sigma moves with the data.
    SecretNoiseResult pa = SecretNoise.builder().records(with, 3).uniformBudget(BUDGET).shiftMultiplier(SQRT2).solve();
    SecretNoiseResult pb = SecretNoise.builder().records(without, 3).uniformBudget(BUDGET).shiftMultiplier(SQRT2).solve();
    assertThat(pa.sigma()).isNotEqualTo(pb.sigma());
  }

  /**
   * Removing every record of one secret (later positions shift) leaves sigma and every other
   * record's sampling unchanged, and no secret has more than K sampled records.
   */
  @Property(tries = 100)
  void removingOneSecretsRecordsChangesOnlyThoseRecords(
      @ForAll @IntRange(min = 1, max = 40) int n,
      @ForAll @IntRange(min = 1, max = 6) int m,
      @ForAll @IntRange(min = 1, max = 4) int k,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<int[]> records = new ArrayList<>();
    long[] key = new long[n];
    for (int i = 0; i < n; i++) {
      int held = rnd.nextInt(4) == 0 ? 2 : rnd.nextInt(2);
      int[] s = new int[held];
      for (int h = 0; h < held; h++) {
        s[h] = rnd.nextInt(m);
      }
      records.add(s);
      key[i] = rnd.nextInt(8); // a function of the record alone (small range: ties happen)
    }
    int removed = rnd.nextInt(m);
    List<int[]> rest = new ArrayList<>();
    List<Integer> origin = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (java.util.Arrays.stream(records.get(i)).noneMatch(j -> j == removed)) {
        rest.add(records.get(i));
        origin.add(i);
      }
    }
    long[] restKey = origin.stream().mapToLong(i -> key[i]).toArray();
    SecretNoiseResult full = capped(records, m, k, key);
    SecretNoiseResult neighbour = capped(rest, m, k, restKey);
    assertThat(neighbour.sigma()).isEqualTo(full.sigma());
    for (int i = 0; i < rest.size(); i++) {
      assertThat(neighbour.rho()[i]).as("record %d", origin.get(i)).isEqualTo(full.rho()[origin.get(i)]);
    }
    for (int j = 0; j < m; j++) {
      int sampled = 0;
      for (int i = 0; i < n; i++) {
        final int jj = j;
        if (full.rho()[i] > 0 && java.util.Arrays.stream(records.get(i)).anyMatch(x -> x == jj)) {
          sampled++;
        }
      }
      assertThat(sampled).as("secret %d", j).isLessThanOrEqualTo(k);
    }
  }

  @Test
  void priorityMustCoverEveryRecordAndTheCapMustBePositive() {
    assertThatThrownBy(() -> capped(List.of(new int[] {0}, new int[0]), 1, 2, new long[1]))
        .hasMessageContaining("priority=1 records=2");
    assertThatThrownBy(() -> SecretNoise.builder().secretCap(0, new long[0])).hasMessageContaining("secretCap");
  }
}
