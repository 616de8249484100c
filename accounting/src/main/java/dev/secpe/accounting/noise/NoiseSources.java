package dev.secpe.accounting.noise;

import dev.secpe.accounting.Preconditions;
import java.security.SecureRandom;
import java.util.Random;

/**
 * Factories for {@link NoiseSource}s.
 *
 * <h2>How noise is drawn</h2>
 *
 * <ul>
 *   <li>Integer noise ({@link NoiseSource#discreteGaussian}, {@link NoiseSource#discreteLaplace})
 *       and {@link NoiseSource#bernoulli} are <em>exact</em>: Canonne, Kamath and Steinke (2020)
 *       Algorithms 1-3 run in rational {@link java.math.BigInteger} arithmetic on uniform random
 *       bits, so the output distribution is exactly the named one (no floating-point rounding);
 *       the only assumption is that the bit source is uniform.
 *   <li>Real noise ({@link NoiseSource#gaussian}, {@link NoiseSource#laplace}) with scale s is
 *       {@code g * K} where {@code g = gridSpacing(s)} is a power of two about {@code s * 2^-20}
 *       and K is the exact discrete Gaussian (resp. discrete Laplace) with scale {@code s / g}.
 *       The values are therefore exactly representable and lie on the regular lattice {@code g Z},
 *       rather than on the irregular set of doubles a textbook {@code log}/{@code sqrt} sampler
 *       reaches, which is what Mironov (2012) exploited to recover the unperturbed value. For a
 *       value on the grid and a sensitivity that is a multiple of g, the privacy is exactly that
 *       of the discrete Gaussian with scale s/g: the same concentrated-DP bound {@code
 *       (sensitivity/s)^2 / 2} as the continuous Gaussian (Canonne et al. 2020, §2), whose exact
 *       (epsilon, delta) curve they also give. The ledger accounts it as the continuous Gaussian.
 *       Measured by exact summation ({@code accounting/src/test/python/discrete_vs_continuous_gaussian.py}),
 *       the discrete delta(eps) is <em>below</em> the continuous one for every scale >= 20 we
 *       checked (by a relative ~1e-4 at 20, ~1e-7 at 1000, shrinking like 1/scale^2), so at
 *       s/g >= 2^20 continuous accounting is safe by that evidence (not a proof). For Laplace
 *       the privacy is exactly {@code epsilon = sensitivity / s}.
 *   <li><b>Small-scale integer noise is different:</b> for {@link
 *       NoiseSource#discreteGaussian} with sigma below about 20, the continuous formula
 *       <em>under</em>-states delta (by up to 19% at sigma = 1, 15% at sigma = 2, 3% at sigma =
 *       5-10, same script); account such releases with the exact discrete curve, or use sigma
 *       >= 20.
 *   <li>To close the remaining channel (the sum {@code value + noise} is rounded to a double), a
 *       caller that releases {@code value + noise} should first snap the value to the same grid:
 *       {@code Math.rint(value / g) * g}. That moves the value by at most g/2 per coordinate, so
 *       the sensitivity grows by at most {@code g * sqrt(d)} (a relative 1e-6 of sigma); callers
 *       with tight budgets add it to their sensitivity.
 * </ul>
 */
public final class NoiseSources {

  /** log2 of sigma / grid spacing for real-valued noise. */
  static final int GRID_BITS = 20;

  private NoiseSources() {}

  /**
   * The default: noise from a {@link SecureRandom} (the platform's default algorithm), read in
   * 4 KiB blocks.
   */
  public static NoiseSource secure() {
    BufferedSecureRandom rng = new BufferedSecureRandom(new SecureRandom());
    return new GridNoiseSource(rng, true, "SecureRandom(" + rng.algorithm() + ")");
  }

  /**
   * A seeded, reproducible source for tests and demos only, backed by {@link java.util.Random}.
   * It is NOT private: {@link NoiseSource#isPrivate()} is {@code false} and its description says
   * so; reports of runs that use it say the run is non-private.
   */
  public static NoiseSource reproducibleForTests(long seed) {
    return new GridNoiseSource(
        new Random(seed), false, "seeded test source, NOT private (java.util.Random)") {
      @Override
      public NoiseSource forRelease(String releaseId) {
        long h = seed;
        for (int i = 0; i < releaseId.length(); i++) {
          h = h * 0x100000001B3L ^ releaseId.charAt(i);
        }
        return new GridNoiseSource(
            new Random(h ^ 0x9E3779B97F4A7C15L), false, "seeded test source, NOT private (java.util.Random)");
      }
    };
  }

  /**
   * The lattice spacing of real-valued noise of scale s: the power of two {@code 2^(floor(log2
   * s) - 20)}, so s / spacing is in [2^20, 2^21).
   */
  public static double gridSpacing(double scale) {
    Preconditions.checkPositive("scale", scale);
    return Math.scalb(1.0, Math.getExponent(scale) - GRID_BITS);
  }
}
