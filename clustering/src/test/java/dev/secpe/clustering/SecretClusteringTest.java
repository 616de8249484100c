package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.secret.SecretNoiseResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.hipparchus.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SecretClusteringTest {

  static SecretNoiseResult noiseResult(double sigma, double[] rho, double c) {
    double[] w = rho.clone();
    return new SecretNoiseResult(sigma, new double[] {sigma, sigma}, w, rho,
        Arrays.stream(rho).sum(), 1, c);
  }

  /** Records 0, 3, 6, ... hold secret 0; records 1, 4, ... hold secret 1; the rest none. */
  static List<int[]> secrets(int n) {
    List<int[]> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      s.add(i % 3 == 2 ? new int[0] : new int[] {i % 3});
    }
    return s;
  }

  /** Well separated public centres of norm 0.8 and private points near them, some far out. */
  static final class Fixture {
    final int k = 40;
    final int d = 32;
    final int n = 2000;
    final float[][] centres = new float[k][d];
    final int[] sizes = new int[k];
    final float[][] priv = new float[n][d];
    final double[] rho = new double[n];

    Fixture(long seed) {
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int c = 0; c < k; c++) {
        double s = 0;
        for (int j = 0; j < d; j++) {
          centres[c][j] = (float) NearestNeighboursTest.nextGaussian(rnd);
          s += centres[c][j] * centres[c][j];
        }
        for (int j = 0; j < d; j++) {
          centres[c][j] = (float) (centres[c][j] * 0.8 / Math.sqrt(s));
        }
        sizes[c] = 10 + c; // n_k from 10 to 49: the centre noise 2R sigma / n_k varies
      }
      for (int i = 0; i < n; i++) {
        int c = rnd.nextInt(k);
        double scale = i % 5 == 0 ? 4.0 : 1.0; // every 5th is clipped
        for (int j = 0; j < d; j++) {
          priv[i][j] = (float) (scale * (centres[c][j] + 0.02 * NearestNeighboursTest.nextGaussian(rnd)));
        }
        rho[i] = i % 7 == 0 ? 0.0 : 1.0; // rho 0 never sampled, rho 1 always
      }
    }
  }

  /**
   * The released noise matches eq. (7): counts have N(0, sigma^2) noise, centres (2R/n_k)
   * N(0, sigma^2 I_d) noise, around the exact values computed here independently (clip in
   * double, brute-force assignment). All K(1+d) = 1320 standardised residuals must look N(0,1):
   * Kolmogorov-Smirnov p > 1e-4 and sum of squares inside the two-sided 1e-4 chi-square(1320)
   * interval. With the fixed seed the test is deterministic; over random seeds its
   * false-failure rate would be at most 2e-4. A wrong scale by 10% moves the chi-square
   * statistic ~ 1320*0.21 = 277 against a standard deviation of 51: it cannot pass.
   */
  @ParameterizedTest
  @EnumSource(Metric.class)
  void releasedNoiseHasTheCalibratedScale(Metric metric) {
    Fixture f = new Fixture(2024);
    double sigma = 1.7;
    double radius = metric == Metric.COSINE ? 1.0 : 1.0;
    SecretClustering.Builder b = SecretClustering.builder().metric(metric)
        .publicClusters(Embeddings.of(f.centres), f.sizes)
        .secretNoise(noiseResult(sigma, f.rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(77, null))
        .ledgerCharge(r -> r)
        .nonPositiveCountPolicy(NonPositiveCountPolicy.KEEP);
    if (metric == Metric.L2) {
      b.clipRadius(radius);
    }
    SecretClusteringResult res = b.build().release(Embeddings.of(f.priv));
    assertThat(res.size()).isEqualTo(f.k);
    assertThat(res.clusterIndex()).containsExactly(java.util.stream.IntStream.range(0, f.k).toArray());

    // Independent expected values.
    float[][] e = metric == Metric.COSINE ? BruteForce.normalise(f.centres) : f.centres;
    double[][] clipped = new double[f.n][];
    float[][] clippedF = new float[f.n][];
    for (int i = 0; i < f.n; i++) {
      double s = 0;
      for (float v : f.priv[i]) {
        s += v * (double) v;
      }
      double norm = Math.sqrt(s);
      double scale = metric == Metric.COSINE ? 1 / norm : Math.min(1, radius / norm);
      clipped[i] = new double[f.d];
      clippedF[i] = new float[f.d];
      for (int j = 0; j < f.d; j++) {
        clipped[i][j] = f.priv[i][j] * scale;
        clippedF[i][j] = (float) clipped[i][j];
      }
    }
    int[] nearest = BruteForce.top1(metric, clippedF, e);
    long[] m = new long[f.k];
    double[][] sum = new double[f.k][f.d];
    for (int i = 0; i < f.n; i++) {
      if (f.rho[i] == 1.0) {
        m[nearest[i]]++;
        for (int j = 0; j < f.d; j++) {
          sum[nearest[i]][j] += clipped[i][j];
        }
      }
    }
    double[] counts = res.counts();
    float[][] centres = res.centres().toArray();
    double[] z = new double[f.k * (1 + f.d)];
    int q = 0;
    for (int c = 0; c < f.k; c++) {
      z[q++] = (counts[c] - f.sizes[c] - m[c]) / sigma;
      double scale = 2 * radius * sigma / f.sizes[c];
      for (int j = 0; j < f.d; j++) {
        double mean = (f.sizes[c] * (double) e[c][j] + sum[c][j]) / (f.sizes[c] + m[c]);
        z[q++] = (centres[c][j] - mean) / scale;
      }
    }
    double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new NormalDistribution(0, 1), z);
    assertThat(p).as("KS p-value").isGreaterThan(1e-4);
    double ss = Arrays.stream(z).map(v -> v * v).sum();
    ChiSquaredDistribution chi = new ChiSquaredDistribution(z.length);
    assertThat(ss).isBetween(chi.inverseCumulativeProbability(0.5e-4),
        chi.inverseCumulativeProbability(1 - 0.5e-4));
    assertThat(res.noiseIsPrivate()).isFalse();
  }

  /**
   * Records enter with probability rho_i: with negligible noise (sigma = 1e-9) the released
   * counts sum to sum_k n_k + (number sampled), and the number sampled is Binomial(N, rho).
   * Bound: 4.5 standard deviations (false-failure rate ~7e-6; the seed is fixed).
   */
  @Test
  void recordsAreSampledWithProbabilityRho() {
    Fixture f = new Fixture(4);
    double p = 0.3;
    double[] rho = new double[f.n];
    java.util.Arrays.fill(rho, p);
    SecretClusteringResult res = SecretClustering.builder()
        .publicClusters(Embeddings.of(f.centres), f.sizes)
        .secretNoise(noiseResult(1e-9, rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(13, null)).ledgerCharge(r -> r)
        .nonPositiveCountPolicy(NonPositiveCountPolicy.KEEP)
        .build().release(Embeddings.of(f.priv));
    double sampled = Arrays.stream(res.counts()).sum() - Arrays.stream(f.sizes).sum();
    assertThat(Math.abs(sampled - Math.rint(sampled))).isLessThan(1e-3);
    double mean = f.n * p;
    double sd = Math.sqrt(f.n * p * (1 - p));
    assertThat(sampled).isBetween(mean - 4.5 * sd, mean + 4.5 * sd);
    assertThat(sampled).isNotEqualTo((double) f.n); // not everything
  }

  @Test
  void chargesTheLedgerBeforeAnyRandomnessWithTheSqrt2MixtureCost() {
    Fixture f = new Fixture(1);
    List<String> events = new ArrayList<>();
    List<Release> charged = new ArrayList<>();
    double[] rho = f.rho.clone();
    rho[1] = 0.25; // record 1 holds secret 1
    SecretClustering sc = SecretClustering.builder()
        .publicClusters(Embeddings.of(f.centres), f.sizes)
        .secretNoise(noiseResult(2.0, rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(1, events))
        .ledgerCharge(r -> {
          events.add("charge");
          charged.add(r);
          return r;
        })
        .releaseId("run-1/secret-clustering")
        .build();
    SecretClusteringResult res = sc.release(Embeddings.of(f.priv));
    assertThat(events.get(0)).isEqualTo("charge");
    assertThat(events.stream().filter("charge"::equals).count()).isEqualTo(1);
    assertThat(events.size()).isGreaterThan(f.n); // n Bernoulli draws + K(1+d) Gaussians
    Release r = charged.get(0);
    assertThat(r.id()).isEqualTo("run-1/secret-clustering");
    assertThat(r.noiseScale()).isEqualTo(2.0);
    PrivacyCost.SecretMixture cost = (PrivacyCost.SecretMixture) r.cost();
    assertThat(cost.sigma()).isEqualTo(2.0);
    assertThat(cost.shiftMultiplier()).isEqualTo(Math.sqrt(2));
    double[][] probs = cost.shiftProbsPerSecret();
    assertThat(probs).hasNumberOfRows(2);
    assertThat(probs[0]).hasSize(667); // records 0, 3, ..., 1998
    assertThat(probs[1]).hasSize(667);
    assertThat(probs[1][0]).isEqualTo(0.25);
    assertThat(probs[0][0]).isEqualTo(0.0); // record 0 has rho 0 (i % 7 == 0)
    assertThat(res.release()).isSameAs(r);
    assertThatThrownBy(() -> sc.release(Embeddings.of(f.priv)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already released");
  }

  @Test
  void aRefusedChargeDrawsNoRandomness() {
    Fixture f = new Fixture(1);
    List<String> events = new ArrayList<>();
    SecretClustering sc = SecretClustering.builder()
        .publicClusters(Embeddings.of(f.centres), f.sizes)
        .secretNoise(noiseResult(2.0, f.rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(1, events))
        .ledgerCharge(r -> {
          throw new IllegalStateException("budget exceeded");
        })
        .build();
    assertThatThrownBy(() -> sc.release(Embeddings.of(f.priv))).hasMessage("budget exceeded");
    assertThat(events).isEmpty();
  }

  @Test
  void nonPositiveCountPoliciesArePostProcessingOfTheSameNoise() {
    Fixture f = new Fixture(3);
    double[] rho = new double[f.n]; // nothing sampled: counts are n_k + N(0, sigma^2)
    SecretClusteringResult[] out = new SecretClusteringResult[3];
    NonPositiveCountPolicy[] ps = {NonPositiveCountPolicy.KEEP, NonPositiveCountPolicy.DROP,
        NonPositiveCountPolicy.CLAMP_TO_ONE};
    for (int t = 0; t < 3; t++) {
      out[t] = SecretClustering.builder()
          .publicClusters(Embeddings.of(f.centres), f.sizes)
          .secretNoise(noiseResult(40.0, rho, Math.sqrt(2)), secrets(f.n))
          .noise(new TestNoise(5, null)).ledgerCharge(r -> r)
          .nonPositiveCountPolicy(ps[t]).build().release(Embeddings.of(f.priv));
    }
    double[] raw = out[0].counts();
    long negatives = Arrays.stream(raw).filter(v -> !(v > 0)).count();
    assertThat(negatives).isGreaterThan(0); // sigma 40 vs n_k <= 49
    assertThat(out[1].size()).isEqualTo(f.k - negatives);
    assertThat(Arrays.stream(out[1].counts()).allMatch(v -> v > 0)).isTrue();
    for (int q = 0; q < out[1].size(); q++) {
      int c = out[1].clusterIndex()[q];
      assertThat(out[1].counts()[q]).isEqualTo(raw[c]);
      assertThat(out[1].centres().row(q)).containsExactly(out[0].centres().row(c));
    }
    for (int c = 0; c < f.k; c++) {
      assertThat(out[2].counts()[c]).isEqualTo(raw[c] > 0 ? raw[c] : 1.0);
    }
  }

  /**
   * A caller that charges the release itself (a run's release store) gets the same noisy values as
   * a clustering that charges its own ledger, and the result names the release the caller charged.
   */
  @Test
  void aReleaseChargedByTheCallerDrawsTheSameValuesWithoutChargingAgain() {
    Fixture f = new Fixture(5);
    Embeddings centres = Embeddings.of(f.centres);
    dev.secpe.accounting.ledger.PrivacyLedger ledger = dev.secpe.accounting.ledger.PrivacyLedger.unlimited();
    SecretClusteringResult own = SecretClustering.builder().publicClusters(centres, f.sizes)
        .secretNoise(noiseResult(1.3, f.rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(9, null)).ledger(ledger).releaseId("x").build().release(Embeddings.of(f.priv));
    SecretClustering byCaller = SecretClustering.builder().publicClusters(centres, f.sizes)
        .secretNoise(noiseResult(1.3, f.rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(9, null)).chargedByCaller().releaseId("x").build();
    // What the caller charges is exactly what the clustering would have charged.
    assertThat(byCaller.plannedRelease()).isEqualTo(ledger.releases().get(0));
    SecretClusteringResult theirs = byCaller.release(Embeddings.of(f.priv));
    assertThat(theirs.counts()).containsExactly(own.counts());
    assertThat(theirs.centres().toArray()).isEqualTo(own.centres().toArray());
    // chargedAs: the result names the caller's release; its noise must be this clustering's.
    dev.secpe.accounting.ledger.Release capped = new dev.secpe.accounting.ledger.Release(
        "y", SecretClustering.MECHANISM, "t", Math.sqrt(2), 1.3, new dev.secpe.accounting.ledger.PrivacyCost.Gaussian(1.3 / (2 * Math.sqrt(2))));
    SecretClusteringResult asCapped = SecretClustering.builder().publicClusters(centres, f.sizes)
        .secretNoise(noiseResult(1.3, f.rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(9, null)).chargedAs(capped).build().release(Embeddings.of(f.priv));
    assertThat(asCapped.release()).isEqualTo(capped);
    assertThatThrownBy(() -> SecretClustering.builder().publicClusters(centres, f.sizes)
            .secretNoise(noiseResult(1.0, f.rho, Math.sqrt(2)), secrets(f.n))
            .noise(new TestNoise(9, null)).chargedAs(capped).build())
        .hasMessageContaining("sigma=1.0").hasMessageContaining("noiseScale=1.3");
    assertThatThrownBy(() -> SecretClustering.builder().publicClusters(centres, f.sizes)
            .secretNoise(noiseResult(1.3, f.rho, Math.sqrt(2)), secrets(f.n))
            .noise(new TestNoise(9, null)).ledger(ledger).chargedByCaller().build())
        .hasMessageContaining("charged once");
    assertThatThrownBy(() -> SecretClustering.builder().publicClusters(centres, f.sizes)
            .secretNoise(noiseResult(1.3, f.rho, Math.sqrt(2)), secrets(f.n))
            .noise(new TestNoise(9, null)).build())
        .hasMessageContaining("every release is charged");
  }

  @Test
  void badInputIsRejectedNamingFieldAndValue() {
    Fixture f = new Fixture(1);
    Embeddings centres = Embeddings.of(f.centres);
    assertThatThrownBy(() -> SecretClustering.builder()
            .publicClusters(centres, f.sizes)
            .secretNoise(noiseResult(1.0, f.rho, 1.0), secrets(f.n))
            .noise(new TestNoise(1, null)).ledgerCharge(r -> r).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("shiftMultiplier=1.0");
    int[] bad = f.sizes.clone();
    bad[3] = 0;
    assertThatThrownBy(() -> SecretClustering.builder().publicClusters(centres, bad))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sizes[3]=0");
    double[] badRho = f.rho.clone();
    badRho[9] = Double.NaN;
    assertThatThrownBy(() -> SecretClustering.builder()
            .secretNoise(noiseResult(1.0, badRho, Math.sqrt(2)), secrets(f.n)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rho[9]=NaN");
    assertThatThrownBy(() -> SecretClustering.builder().clipRadius(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clipRadius=-1.0");
    assertThatThrownBy(() -> SecretClustering.builder().metric(Metric.COSINE).clipRadius(2)
            .publicClusters(centres, f.sizes)
            .secretNoise(noiseResult(1.0, f.rho, Math.sqrt(2)), secrets(f.n))
            .noise(new TestNoise(1, null)).ledgerCharge(r -> r).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("clipRadius=2.0");
    SecretClustering ok = SecretClustering.builder().publicClusters(centres, f.sizes)
        .secretNoise(noiseResult(1.0, f.rho, Math.sqrt(2)), secrets(f.n))
        .noise(new TestNoise(1, null)).ledgerCharge(r -> r).build();
    assertThatThrownBy(() -> ok.release(Embeddings.of(new float[f.n][5])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("privateEmbeddings.dim=5 centres.dim=32");
    RowSource withZero = new RowSource() {
      public long rows() { return f.n; }
      public int dim() { return f.d; }
      public void read(long first, int count, float[] dst) {
        for (int r = 0; r < count; r++) {
          for (int j = 0; j < f.d; j++) {
            dst[r * f.d + j] = first + r == 8 ? 0f : f.priv[(int) first + r][j];
          }
        }
      }
    };
    assertThatThrownBy(() -> SecretClustering.builder().publicClusters(centres, f.sizes)
            .secretNoise(noiseResult(1.0, f.rho, Math.sqrt(2)), secrets(f.n))
            .noise(new TestNoise(1, null)).ledgerCharge(r -> r).build().release(withZero))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("privateEmbeddings[8] = zero vector");
  }

}
