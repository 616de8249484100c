package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The double-double FFT of the tilted composition, checked against exact arithmetic: its additions
 * and products against {@link BigDecimal} and the proven bounds of Joldes, Muller and Popescu
 * (2017), its twiddle factors against closed forms and 40-digit values (mpmath), and whole
 * convolutions against exact sums at sampled outputs, with the error bound the accountant relies
 * on.
 */
class DoubleDoubleFftTest {

  private static final MathContext MC = new MathContext(60);
  private static final double U = 0x1.0p-53;

  private static BigDecimal dd(double hi, double lo) {
    return new BigDecimal(hi).add(new BigDecimal(lo));
  }

  /** A normalised double-double near {@code x}: hi = x, lo a random fraction of half an ulp. */
  private static double[] word(double x, double f) {
    return new double[] {x, f * 0.5 * Math.ulp(x)};
  }

  @Property(tries = 2000)
  void additionIsWithinItsProvenBound(
      @ForAll @DoubleRange(min = -1e6, max = 1e6) double a,
      @ForAll @DoubleRange(min = -1, max = 1) double fa,
      @ForAll @DoubleRange(min = -1e6, max = 1e6) double b,
      @ForAll @DoubleRange(min = -1, max = 1) double fb,
      @ForAll @IntRange(min = -60, max = 60) int scale) {
    double[] x = word(a, fa);
    double[] y = word(Math.scalb(b, scale), fb);
    DoubleDoubleFft f = new DoubleDoubleFft(8);
    double zh = f.add(x[0], x[1], y[0], y[1]);
    double zl = f.lastLow();
    BigDecimal exact = dd(x[0], x[1]).add(dd(y[0], y[1]));
    BigDecimal err = dd(zh, zl).subtract(exact).abs();
    // Algorithm 6: 3u^2 / (1 - 4u) relative
    assertThat(err).isLessThanOrEqualTo(exact.abs().multiply(new BigDecimal(3 * U * U / (1 - 4 * U))));
    assertThat(Math.abs(zl)).isLessThanOrEqualTo(0.5 * Math.ulp(zh)); // normalised
  }

  @Property(tries = 2000)
  void productIsWithinItsProvenBound(
      @ForAll @DoubleRange(min = -1e6, max = 1e6) double a,
      @ForAll @DoubleRange(min = -1, max = 1) double fa,
      @ForAll @DoubleRange(min = -1e6, max = 1e6) double b,
      @ForAll @DoubleRange(min = -1, max = 1) double fb) {
    double[] x = word(a, fa);
    double[] y = word(b, fb);
    DoubleDoubleFft f = new DoubleDoubleFft(8);
    double zh = f.mul(x[0], x[1], y[0], y[1]);
    double zl = f.lastLow();
    BigDecimal exact = dd(x[0], x[1]).multiply(dd(y[0], y[1]));
    BigDecimal err = dd(zh, zl).subtract(exact).abs();
    // Algorithm 10: 7u^2 relative
    assertThat(err).isLessThanOrEqualTo(exact.abs().multiply(new BigDecimal(7 * U * U)));
  }

  @Test
  void twiddlesMatchClosedFormsAndFortyDigitValues() {
    BigDecimal two = BigDecimal.valueOf(2);
    BigDecimal sqrt2 = two.sqrt(MC);
    // n = 16: k = 1 is pi/8, k = 2 pi/4, k = 3 (past pi/4) 3pi/8, k = 6 (past pi/2) 3pi/4
    DoubleDoubleFft f16 = new DoubleDoubleFft(16);
    BigDecimal cosPi8 = two.add(sqrt2).sqrt(MC).divide(two, MC);
    BigDecimal sinPi8 = two.subtract(sqrt2).sqrt(MC).divide(two, MC);
    BigDecimal half = sqrt2.divide(two, MC);
    assertClose(f16.cos(1), cosPi8);
    assertClose(f16.sin(1), sinPi8);
    assertClose(f16.cos(2), half);
    assertClose(f16.sin(2), half);
    assertClose(f16.cos(3), sinPi8);
    assertClose(f16.sin(3), cosPi8);
    assertClose(f16.cos(6), half.negate());
    assertClose(f16.sin(6), half);
    // mpmath, 45 digits: cos and sin of 2 pi k / n
    DoubleDoubleFft f64 = new DoubleDoubleFft(64);
    BigDecimal c5 = new BigDecimal("0.8819212643483550297127568636603883495084");
    BigDecimal s5 = new BigDecimal("0.4713967368259976485563876259052543776575");
    assertClose(f64.cos(5), c5);
    assertClose(f64.sin(5), s5);
    assertClose(f64.cos(11), s5); // 2 pi 11/64 = pi/2 - 2 pi 5/64
    assertClose(f64.sin(11), c5);
    assertClose(f64.cos(27), c5.negate()); // pi - 2 pi 5/64
    assertClose(f64.sin(27), s5);
    DoubleDoubleFft f1024 = new DoubleDoubleFft(1024);
    assertClose(f1024.cos(37), new BigDecimal("0.9743393827855758605187216681943645931426"));
    assertClose(f1024.sin(37), new BigDecimal("0.2250839113597928359916421198633534633451"));
    DoubleDoubleFft big = new DoubleDoubleFft(1 << 20);
    assertClose(big.cos(12345), new BigDecimal("0.9972652725020368298470359095257010226227"));
    assertClose(big.sin(12345), new BigDecimal("0.07390518426631669257592587360804663032849"));
  }

  private static void assertClose(double[] word, BigDecimal exact) {
    // 2^-104 absolute: what the error analysis assumes of the twiddles, with room
    assertThat(dd(word[0], word[1]).subtract(exact).abs()).isLessThan(new BigDecimal(0x1.0p-104));
  }

  /**
   * Sequences spanning 10^-90 to 1 (what a tilted PLD looks like): every sampled output of the
   * double-double convolution is within its bound of the exact sum, the bound is at the
   * double-double scale (below 1e-25 of the largest output), and an output 1e-20 of the largest,
   * where the double FFT's own bound exceeds the value, is still right to 1e-6.
   */
  @Property(tries = 6)
  void convolutionIsWithinItsBoundOfTheExactSums(@ForAll @IntRange(min = 0, max = 1000) int seed) {
    Random rnd = new Random(seed);
    int nx = 1100 + rnd.nextInt(900);
    int ny = 1000 + rnd.nextInt(900);
    double[] x = profile(nx, rnd);
    double[] y = profile(ny, rnd);
    Convolution.Result r = Convolution.convolveTilted(x, y);
    Convolution.Result plain = Convolution.convolve(x, y);
    double[] z = r.values();
    double top = 0;
    for (double v : z) {
      top = Math.max(top, v);
    }
    assertThat(r.errorMax()).isLessThan(1e-25 * top);
    boolean tinyChecked = false;
    for (int s = 0; s < 60; s++) {
      int k = rnd.nextInt(z.length);
      BigDecimal exact = exact(x, y, k);
      double bound = r.errorMax() + r.errorRelative() * Math.abs(z[k]);
      assertThat(new BigDecimal(z[k]).subtract(exact).abs())
          .as("output %d of %d", k, z.length)
          .isLessThanOrEqualTo(new BigDecimal(bound));
      double e = exact.doubleValue();
      if (e > 0 && e < 1e-20 * top && e > 1e-24 * top) {
        assertThat(Math.abs(z[k] - e)).isLessThanOrEqualTo(1e-6 * e);
        assertThat(plain.errorMax()).isGreaterThan(e);
        tinyChecked = true;
      }
    }
    // one output deliberately in that range: the middle of the far tail
    int k = z.length - 1;
    while (k > 0 && !(z[k] > 1e-24 * top)) {
      k--;
    }
    while (k > 0 && z[k] < 1e-20 * top) {
      BigDecimal exact = exact(x, y, k);
      double e = exact.doubleValue();
      if (e > 1e-24 * top) {
        assertThat(Math.abs(z[k] - e)).isLessThanOrEqualTo(1e-6 * e);
        assertThat(plain.errorMax()).isGreaterThan(e);
        tinyChecked = true;
        break;
      }
      k -= 10;
    }
    assertThat(tinyChecked).isTrue();
  }

  /** A bump of height 1 falling off as e^{-t^2} towards both ends: 1 to about 1e-90. */
  private static double[] profile(int n, Random rnd) {
    double[] v = new double[n];
    double c = n * (0.3 + 0.4 * rnd.nextDouble());
    for (int i = 0; i < n; i++) {
      double t = (i - c) / n * 25;
      v[i] = Math.exp(-t * t / 2.5) * (0.5 + rnd.nextDouble());
    }
    return v;
  }

  private static BigDecimal exact(double[] x, double[] y, int k) {
    BigDecimal s = BigDecimal.ZERO;
    for (int i = Math.max(0, k - y.length + 1); i <= Math.min(k, x.length - 1); i++) {
      s = s.add(new BigDecimal(x[i]).multiply(new BigDecimal(y[k - i])));
    }
    return s;
  }
}
