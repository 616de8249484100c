package dev.secpe.accounting.noise;

import java.math.BigInteger;
import java.util.Random;

/**
 * Exact samplers of Canonne, Kamath and Steinke (2020), "The Discrete Gaussian for Differential
 * Privacy", Algorithms 1-3, in exact rational arithmetic ({@link BigInteger}): given a uniform
 * source of random bits the output distributions are exactly Bernoulli(exp(-gamma)), the discrete
 * Laplace and the discrete Gaussian, with no floating-point rounding anywhere. Parameters given
 * as doubles are converted to the exact rational they denote (every finite double is m * 2^e).
 *
 * <p>Thread-safe if the {@link Random} is (both {@link java.security.SecureRandom} and {@link
 * Random} are).
 */
final class ExactSampler {

  private final Random rng;

  ExactSampler(Random rng) {
    this.rng = rng;
  }

  /** A rational n/d with n >= 0, d > 0 (not necessarily reduced). */
  record Rational(BigInteger num, BigInteger den) {
    static Rational of(double x) {
      if (!(x >= 0) || !Double.isFinite(x)) {
        throw new IllegalArgumentException("expected a finite value >= 0, got " + x);
      }
      if (x == 0) {
        return new Rational(BigInteger.ZERO, BigInteger.ONE);
      }
      long bits = Double.doubleToLongBits(x);
      int exp = (int) ((bits >> 52) & 0x7ff);
      long mant = bits & ((1L << 52) - 1);
      if (exp == 0) {
        exp = 1;
      } else {
        mant |= 1L << 52;
      }
      int e = exp - 1075;
      int tz = Long.numberOfTrailingZeros(mant);
      mant >>= tz;
      e += tz;
      BigInteger m = BigInteger.valueOf(mant);
      return e >= 0
          ? new Rational(m.shiftLeft(e), BigInteger.ONE)
          : new Rational(m, BigInteger.ONE.shiftLeft(-e));
    }
  }

  /** Uniform on {0, ..., n - 1}, n >= 1, by rejection from n.bitLength() random bits. */
  BigInteger uniformBelow(BigInteger n) {
    int bits = n.bitLength();
    if (bits < 63) {
      long bound = n.longValue();
      long mask = (1L << bits) - 1;
      while (true) {
        long x = rng.nextLong() & mask;
        if (x < bound) {
          return BigInteger.valueOf(x);
        }
      }
    }
    while (true) {
      BigInteger x = new BigInteger(bits, rng);
      if (x.compareTo(n) < 0) {
        return x;
      }
    }
  }

  /** Bernoulli(num/den) exactly, for 0 <= num <= den. */
  boolean bernoulli(BigInteger num, BigInteger den) {
    return uniformBelow(den).compareTo(num) < 0;
  }

  /** Uniform on {0, ..., n - 1} for 1 <= n < 2^62, by rejection. */
  private long uniformBelow(long n) {
    int bits = 64 - Long.numberOfLeadingZeros(n - 1);
    long mask = bits == 0 ? 0 : (1L << bits) - 1;
    while (true) {
      long x = rng.nextLong() & mask;
      if (x < n) {
        return x;
      }
    }
  }

  /** Bernoulli(exp(-num/den)) exactly, in long arithmetic: 0 <= num, 0 < den < 2^31. */
  private boolean bernoulliExpNeg(long num, long den) {
    for (long i = num / den; i > 0; i--) {
      if (!bernoulliExpNegAtMostOne(1, 1)) {
        return false;
      }
    }
    return bernoulliExpNegAtMostOne(num % den, den);
  }

  /** Algorithm 1 for gamma = num/den in [0, 1], den < 2^31 (den * k stays below 2^62). */
  private boolean bernoulliExpNegAtMostOne(long num, long den) {
    long k = 1;
    while (uniformBelow(den * k) < num) {
      k++;
    }
    return (k & 1) == 1;
  }

  /** Bernoulli(exp(-num/den)) exactly (CKS Algorithm 1), num >= 0, den > 0. */
  boolean bernoulliExpNeg(BigInteger num, BigInteger den) {
    if (den.bitLength() < 31 && num.bitLength() < 63) {
      return bernoulliExpNeg(num.longValue(), den.longValue());
    }
    BigInteger[] qr = num.divideAndRemainder(den);
    // exp(-gamma) = exp(-1)^floor(gamma) * exp(-(gamma - floor(gamma)))
    for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
      if (!bernoulliExpNegAtMostOne(BigInteger.ONE, BigInteger.ONE)) {
        return false;
      }
    }
    return bernoulliExpNegAtMostOne(qr[1], den);
  }

  /** Bernoulli(exp(-gamma)) for gamma = num/den in [0, 1]: K = first k with Bern(gamma/k) = 0. */
  private boolean bernoulliExpNegAtMostOne(BigInteger num, BigInteger den) {
    long k = 1;
    while (bernoulli(num, den.multiply(BigInteger.valueOf(k)))) {
      k++;
    }
    return (k & 1) == 1;
  }

  /**
   * Discrete Laplace with scale t/s: P(x) proportional to exp(-|x| s / t) on the integers (CKS
   * Algorithm 2), s, t >= 1.
   */
  BigInteger discreteLaplace(BigInteger s, BigInteger t) {
    while (true) {
      BigInteger u = uniformBelow(t);
      if (!bernoulliExpNeg(u, t)) {
        continue;
      }
      long v = 0;
      while (bernoulliExpNegAtMostOne(1, 1)) {
        v++;
      }
      BigInteger x = u.add(t.multiply(BigInteger.valueOf(v)));
      BigInteger y = x.divide(s);
      boolean negative = rng.nextBoolean();
      if (negative && y.signum() == 0) {
        continue;
      }
      return negative ? y.negate() : y;
    }
  }

  /** Discrete Gaussian N_Z(0, sigma^2) with sigma^2 = a/b exactly (CKS Algorithm 3). */
  BigInteger discreteGaussian(Rational sigmaSquared) {
    BigInteger a = sigmaSquared.num();
    BigInteger b = sigmaSquared.den();
    BigInteger t = a.divide(b).sqrt().add(BigInteger.ONE); // floor(sigma) + 1
    BigInteger twoAbT2 = a.multiply(b).multiply(t).multiply(t).shiftLeft(1);
    BigInteger bt = b.multiply(t);
    while (true) {
      BigInteger y = discreteLaplace(BigInteger.ONE, t);
      // gamma = (|y| - sigma^2/t)^2 / (2 sigma^2) = (|y| b t - a)^2 / (2 a b t^2)
      BigInteger diff = y.abs().multiply(bt).subtract(a);
      if (bernoulliExpNeg(diff.multiply(diff), twoAbT2)) {
        return y;
      }
    }
  }
}
