package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * {@link Convolution#selfConvolve} (one FFT, every frequency to the T-th power, one inverse FFT)
 * against the T-fold convolution in 34-digit decimal arithmetic: every value, folded modulo the
 * transform's length where the composition is longer than it, is within the error bound the
 * method returns. Masses span 1 to 1e-12, so values far below the largest are checked too.
 */
class SelfConvolvePowerTest {

  @Property(tries = 15)
  void everyValueIsWithinItsBound(
      @ForAll @IntRange(min = 2, max = 25) int length,
      @ForAll @IntRange(min = 2, max = 30) int times,
      @ForAll @IntRange(min = 0, max = 2) int foldShift,
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] x = new double[length];
    for (int i = 0; i < length; i++) {
      x[i] = Math.pow(10, -12 * rnd.nextDouble()) * rnd.nextDouble();
    }
    int full = times * (length - 1) + 1;
    int size = Integer.highestOneBit(full);
    if (size < full) {
      size <<= 1;
    }
    size = Math.max(2, size >> foldShift); // foldShift > 0: the composition wraps around
    Convolution.PowerResult r = Convolution.selfConvolve(x, times, size);

    MathContext mc = MathContext.DECIMAL128;
    BigDecimal total = BigDecimal.ZERO;
    for (double v : x) {
      total = total.add(new BigDecimal(v), mc);
    }
    BigDecimal[] unit = new BigDecimal[length];
    for (int i = 0; i < length; i++) {
      unit[i] = new BigDecimal(x[i]).divide(total, mc);
    }
    BigDecimal[] acc = {BigDecimal.ONE};
    for (int t = 0; t < times; t++) {
      BigDecimal[] next = new BigDecimal[acc.length + length - 1];
      java.util.Arrays.fill(next, BigDecimal.ZERO);
      for (int i = 0; i < acc.length; i++) {
        for (int j = 0; j < length; j++) {
          next[i + j] = next[i + j].add(acc[i].multiply(unit[j], mc), mc);
        }
      }
      acc = next;
    }
    BigDecimal[] folded = new BigDecimal[size];
    java.util.Arrays.fill(folded, BigDecimal.ZERO);
    for (int i = 0; i < acc.length; i++) {
      folded[i % size] = folded[i % size].add(acc[i], mc);
    }
    for (int k = 0; k < size; k++) {
      double exact = folded[k].doubleValue();
      assertThat(Math.abs(r.values()[k] - exact))
          .as("value %d of %d (T=%d, length %d): %s against %s", k, size, times, length,
              r.values()[k], exact)
          .isLessThanOrEqualTo(r.errorMax());
    }
    assertThat(r.logScale()).isCloseTo(times * Math.log(total.doubleValue()),
        org.assertj.core.data.Offset.offset(1e-12 * times));
  }
}
