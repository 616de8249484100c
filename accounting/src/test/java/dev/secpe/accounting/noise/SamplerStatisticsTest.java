package dev.secpe.accounting.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.function.LongSupplier;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Empirical checks of the samplers against their exact distributions.
 *
 * <p>Tolerances come from quantiles: every z-test uses |z| <= 5 (two-sided false-failure
 * probability 5.7e-7 per check) and every chi-square test uses the 1 - 1e-6 quantile, so with the
 * ~25 checks below a correct sampler fails a run with probability below 2e-5. The default suite
 * uses the seeded test source with fixed seeds (so it is deterministic: those seeds pass, and a
 * wrong sampler fails them with overwhelming probability); the {@code slow} suite draws 10x to
 * 50x more samples from {@link NoiseSources#secure()}.
 */
class SamplerStatisticsTest {

  private static final double Z = 5.0;
  private static final double CHI2_FALSE_FAILURE = 1e-6;

  // ------------------------------------------------------------- Bernoulli

  static void checkBernoulliExp(GridNoiseSource src, long num, long den, int n) {
    int hits = 0;
    for (int i = 0; i < n; i++) {
      if (src.bernoulliExpNeg(num, den)) {
        hits++;
      }
    }
    checkBinomial("Bern(exp(-" + num + "/" + den + "))", hits, n, Math.exp(-(double) num / den));
  }

  static void checkBinomial(String what, int hits, int n, double p) {
    double sd = Math.sqrt(n * p * (1 - p));
    assertThat(Math.abs(hits - n * p)).as(what + ": hits=" + hits + " n=" + n).isLessThanOrEqualTo(Z * sd);
  }

  @Test
  void bernoulliExpNegMatchesExp() {
    GridNoiseSource src = (GridNoiseSource) NoiseSources.reproducibleForTests(11);
    checkBernoulliExp(src, 0, 1, 2000);
    checkBernoulliExp(src, 3, 10, 20_000);
    checkBernoulliExp(src, 1, 1, 20_000);
    checkBernoulliExp(src, 5, 2, 20_000);
    checkBernoulliExp(src, 7, 1, 20_000);
    // denominators >= 2^31 take the BigInteger path
    checkBernoulliExp(src, 1_000_000_000_000L, 3_000_000_000_000L, 20_000);
    checkBernoulliExp(src, 7_000_000_000_000L, 3_000_000_000_000L, 20_000);
  }

  @Test
  void bernoulliMatchesP() {
    NoiseSource src = NoiseSources.reproducibleForTests(12);
    for (double p : new double[] {0.0, 0.1, 0.5, 0.9, 1.0}) {
      int hits = 0;
      for (int i = 0; i < 20_000; i++) {
        hits += src.bernoulli(p) ? 1 : 0;
      }
      if (p == 0 || p == 1) {
        assertThat(hits).isEqualTo((int) (p * 20_000));
      } else {
        checkBinomial("Bern(" + p + ")", hits, 20_000, p);
      }
    }
  }

  // ------------------------------------------------------------- discrete pmfs

  /** Chi-square goodness of fit over [-k, k] with the two tails pooled into one bin. */
  static void chiSquare(String what, LongSupplier sampler, int n, int k, double[] pmfFromMinusK, double tailMass) {
    long[] counts = new long[2 * k + 2];
    for (int i = 0; i < n; i++) {
      long x = sampler.getAsLong();
      counts[Math.abs(x) <= k ? (int) (x + k) : 2 * k + 1]++;
    }
    double stat = 0;
    int bins = 0;
    for (int i = 0; i < counts.length; i++) {
      double expected = n * (i <= 2 * k ? pmfFromMinusK[i] : tailMass);
      if (expected < 5) {
        continue; // too small a bin for the chi-square approximation; pooled mass checked below
      }
      stat += (counts[i] - expected) * (counts[i] - expected) / expected;
      bins++;
    }
    double critical = new ChiSquaredDistribution(bins - 1).inverseCumulativeProbability(1 - CHI2_FALSE_FAILURE);
    assertThat(stat).as(what + ": chi2 over " + bins + " bins").isLessThan(critical);
  }

  static double[] discreteGaussianPmf(double sigma, int k) {
    double norm = 0;
    for (int x = -40 * (int) Math.ceil(sigma); x <= 40 * (int) Math.ceil(sigma); x++) {
      norm += Math.exp(-x * (double) x / (2 * sigma * sigma));
    }
    double[] pmf = new double[2 * k + 1];
    for (int x = -k; x <= k; x++) {
      pmf[x + k] = Math.exp(-x * (double) x / (2 * sigma * sigma)) / norm;
    }
    return pmf;
  }

  static double[] discreteLaplacePmf(double b, int k) {
    // P(x) = (1 - e^{-1/b}) / (1 + e^{-1/b}) e^{-|x|/b}
    double q = Math.exp(-1 / b);
    double[] pmf = new double[2 * k + 1];
    for (int x = -k; x <= k; x++) {
      pmf[x + k] = (1 - q) / (1 + q) * Math.pow(q, Math.abs(x));
    }
    return pmf;
  }

  static double rest(double[] pmf) {
    double s = 0;
    for (double v : pmf) {
      s += v;
    }
    return Math.max(0, 1 - s);
  }

  @Test
  void discreteGaussianPmf() {
    NoiseSource src = NoiseSources.reproducibleForTests(13);
    for (double sigma : new double[] {0.7, 3.0, 10.5}) {
      int k = (int) Math.ceil(3 * sigma);
      double[] pmf = discreteGaussianPmf(sigma, k);
      chiSquare("N_Z(0," + sigma + "^2)", () -> src.discreteGaussian(sigma), 20_000, k, pmf, rest(pmf));
    }
  }

  @Test
  void discreteLaplacePmf() {
    NoiseSource src = NoiseSources.reproducibleForTests(14);
    for (double b : new double[] {0.5, 2.0, 7.25}) {
      int k = (int) Math.ceil(4 * b);
      double[] pmf = discreteLaplacePmf(b, k);
      chiSquare("DLap(" + b + ")", () -> src.discreteLaplace(b), 20_000, k, pmf, rest(pmf));
    }
  }

  // ------------------------------------------------------------- real-valued noise

  /** Mean, variance and the two-sided tail mass beyond {@code cut}. */
  static void checkMoments(String what, double[] xs, double variance, double fourthMoment, double cut, double tail) {
    int n = xs.length;
    double sum = 0;
    for (double x : xs) {
      sum += x;
    }
    double mean = sum / n;
    double ss = 0;
    int beyond = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
      if (Math.abs(x) > cut) {
        beyond++;
      }
    }
    double var = ss / (n - 1);
    assertThat(Math.abs(mean)).as(what + " mean").isLessThan(Z * Math.sqrt(variance / n));
    // Var(sample variance) ~ (m4 - sigma^4) / n
    assertThat(Math.abs(var - variance))
        .as(what + " variance " + var)
        .isLessThan(Z * Math.sqrt((fourthMoment - variance * variance) / n));
    checkBinomial(what + " tail beyond " + cut, beyond, n, tail);
  }

  static double[] draw(int n, java.util.function.DoubleSupplier s) {
    double[] xs = new double[n];
    for (int i = 0; i < n; i++) {
      xs[i] = s.getAsDouble();
    }
    return xs;
  }

  static void checkGaussian(NoiseSource src, double sigma, int n) {
    double[] xs = draw(n, () -> src.gaussian(sigma));
    double v = sigma * sigma;
    // two-sided tail beyond 2 sigma: 2 Phi(-2) = 0.04550026389635842
    checkMoments("N(0," + sigma + "^2)", xs, v, 3 * v * v, 2 * sigma, 0.04550026389635842);
    double g = NoiseSources.gridSpacing(sigma);
    for (double x : xs) {
      assertThat(Math.rint(x / g) * g).as("on the grid").isEqualTo(x);
    }
  }

  static void checkLaplace(NoiseSource src, double b, int n) {
    double[] xs = draw(n, () -> src.laplace(b));
    double v = 2 * b * b;
    // E X^4 = 24 b^4; P(|X| > 2b) = e^-2
    checkMoments("Lap(" + b + ")", xs, v, 24 * b * b * b * b, 2 * b, Math.exp(-2));
  }

  @Test
  void gaussianMomentsAndTail() {
    NoiseSource src = NoiseSources.reproducibleForTests(15);
    checkGaussian(src, 1.0, 20_000);
    checkGaussian(src, 37.5, 20_000);
    double[] out = new double[1000];
    src.gaussian(2.0, out);
    assertThat(out).doesNotContain(Double.NaN);
  }

  @Test
  void laplaceMomentsAndTail() {
    NoiseSource src = NoiseSources.reproducibleForTests(16);
    checkLaplace(src, 1.0, 20_000);
    checkLaplace(src, 0.03, 20_000);
  }

  // ------------------------------------------------------------- contract

  @Test
  void secureIsPrivateAndSeededIsNotAndIsReproducible() {
    NoiseSource secure = NoiseSources.secure();
    assertThat(secure.isPrivate()).isTrue();
    assertThat(secure.description()).startsWith("SecureRandom(");
    NoiseSource a = NoiseSources.reproducibleForTests(42);
    NoiseSource b = NoiseSources.reproducibleForTests(42);
    assertThat(a.isPrivate()).isFalse();
    assertThat(a.description()).contains("NOT private");
    for (int i = 0; i < 50; i++) {
      assertThat(a.gaussian(1.5)).isEqualTo(b.gaussian(1.5));
      assertThat(a.discreteLaplace(3)).isEqualTo(b.discreteLaplace(3));
    }
  }

  @Test
  void badScalesAreRejectedWithNameAndValue() {
    NoiseSource src = NoiseSources.reproducibleForTests(1);
    assertThatThrownBy(() -> src.gaussian(Double.NaN)).hasMessageContaining("sigma=NaN");
    assertThatThrownBy(() -> src.gaussian(0)).hasMessageContaining("sigma=0.0");
    assertThatThrownBy(() -> src.laplace(-1)).hasMessageContaining("b=-1.0");
    assertThatThrownBy(() -> src.discreteGaussian(Double.POSITIVE_INFINITY)).hasMessageContaining("sigma=Infinity");
    assertThatThrownBy(() -> src.bernoulli(1.5)).hasMessageContaining("p=1.5");
  }

  @Test
  void rationalOfADoubleIsExact() {
    for (double x : new double[] {0.1, 1.0, 3.75, 1e-300, Double.MIN_VALUE, 1e300, 0.0}) {
      ExactSampler.Rational r = ExactSampler.Rational.of(x);
      assertThat(new BigDecimal(r.num()).divide(new BigDecimal(r.den())))
          .isEqualByComparingTo(new BigDecimal(x));
    }
    assertThat(ExactSampler.Rational.of(0.75)).isEqualTo(new ExactSampler.Rational(BigInteger.valueOf(3), BigInteger.valueOf(4)));
  }

  // ------------------------------------------------------------- slow, with SecureRandom

  @Test
  @Tag("slow")
  void slowSecureSamplers() {
    NoiseSource src = NoiseSources.secure();
    checkBernoulliExp((GridNoiseSource) src, 13, 10, 1_000_000);
    for (double sigma : new double[] {0.4, 2.0, 25.0}) {
      int k = (int) Math.ceil(3.5 * sigma);
      double[] pmf = discreteGaussianPmf(sigma, k);
      chiSquare("N_Z(0," + sigma + "^2)", () -> src.discreteGaussian(sigma), 500_000, k, pmf, rest(pmf));
    }
    for (double b : new double[] {0.3, 4.0}) {
      int k = (int) Math.ceil(5 * b);
      double[] pmf = discreteLaplacePmf(b, k);
      chiSquare("DLap(" + b + ")", () -> src.discreteLaplace(b), 500_000, k, pmf, rest(pmf));
    }
    checkGaussian(src, 3.0, 500_000);
    checkLaplace(src, 2.0, 500_000);
  }
}
