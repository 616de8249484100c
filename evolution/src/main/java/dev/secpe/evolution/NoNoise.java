package dev.secpe.evolution;

import dev.secpe.accounting.noise.NoiseSource;

/**
 * The noise of a non-private baseline run (r/p = infinity): none. Every sample is 0 and every
 * Bernoulli(p > 0) draw succeeds, so subsampling keeps every record. Reports of such runs say
 * {@code NONE}: nothing is protected.
 */
final class NoNoise implements NoiseSource {

  static final NoNoise INSTANCE = new NoNoise();

  private NoNoise() {}

  @Override
  public double gaussian(double sigma) {
    return 0;
  }

  @Override
  public double laplace(double b) {
    return 0;
  }

  @Override
  public long discreteGaussian(double sigma) {
    return 0;
  }

  @Override
  public long discreteLaplace(double b) {
    return 0;
  }

  @Override
  public boolean bernoulli(double p) {
    return p > 0;
  }

  @Override
  public boolean isPrivate() {
    return false;
  }

  @Override
  public String description() {
    return "no noise (non-private baseline)";
  }
}
