package dev.secpe.accounting.noise;

import dev.secpe.accounting.Preconditions;
import java.math.BigInteger;
import java.util.Random;

/**
 * The one {@link NoiseSource} implementation: exact discrete samplers (CKS 2020) for integers,
 * and real-valued noise drawn as exact discrete noise on a power-of-two grid (see {@link
 * NoiseSources#gridSpacing(double)}), which avoids the irregular floating-point support that
 * Mironov (2012) exploited in textbook samplers.
 */
class GridNoiseSource implements NoiseSource {

  private final ExactSampler sampler;
  private final boolean isPrivate;
  private final String description;

  GridNoiseSource(Random rng, boolean isPrivate, String description) {
    this.sampler = new ExactSampler(rng);
    this.isPrivate = isPrivate;
    this.description = description;
  }

  @Override
  public double gaussian(double sigma) {
    Preconditions.checkPositive("sigma", sigma);
    double g = NoiseSources.gridSpacing(sigma);
    double scaled = sigma / g; // exact: g is a power of two
    ExactSampler.Rational s = ExactSampler.Rational.of(scaled);
    ExactSampler.Rational s2 =
        new ExactSampler.Rational(s.num().multiply(s.num()), s.den().multiply(s.den()));
    return sampler.discreteGaussian(s2).doubleValue() * g;
  }

  @Override
  public double laplace(double b) {
    Preconditions.checkPositive("b", b);
    double g = NoiseSources.gridSpacing(b);
    ExactSampler.Rational scale = ExactSampler.Rational.of(b / g);
    // scale t/s = num/den
    return sampler.discreteLaplace(scale.den(), scale.num()).doubleValue() * g;
  }

  @Override
  public long discreteGaussian(double sigma) {
    Preconditions.checkPositive("sigma", sigma);
    ExactSampler.Rational s = ExactSampler.Rational.of(sigma);
    return sampler
        .discreteGaussian(
            new ExactSampler.Rational(s.num().multiply(s.num()), s.den().multiply(s.den())))
        .longValueExact();
  }

  @Override
  public long discreteLaplace(double b) {
    Preconditions.checkPositive("b", b);
    ExactSampler.Rational scale = ExactSampler.Rational.of(b);
    return sampler.discreteLaplace(scale.den(), scale.num()).longValueExact();
  }

  @Override
  public boolean bernoulli(double p) {
    Preconditions.checkUnit("p", p);
    ExactSampler.Rational r = ExactSampler.Rational.of(p);
    return sampler.bernoulli(r.num(), r.den());
  }

  /** Exposed for tests: Bernoulli(exp(-gamma)) for a rational gamma. */
  boolean bernoulliExpNeg(long num, long den) {
    return sampler.bernoulliExpNeg(BigInteger.valueOf(num), BigInteger.valueOf(den));
  }

  @Override
  public boolean isPrivate() {
    return isPrivate;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return description;
  }
}
