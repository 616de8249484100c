package dev.secpe.clustering;

import dev.secpe.accounting.noise.NoiseSource;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test-only seeded noise (NOT private). Gaussian by Box-Muller on SplittableRandom doubles ({@link
 * NearestNeighboursTest#nextGaussian}); optionally logs every draw's kind to {@code events}, which
 * {@code NoiseSources.reproducibleForTests} does not. The tests' expected values were drawn with
 * it, so it stays rather than giving way to that source.
 */
final class TestNoise implements NoiseSource {
  private final SplittableRandom rnd;
  private final List<String> events;

  TestNoise(long seed, List<String> events) {
    this.rnd = new SplittableRandom(seed);
    this.events = events;
  }

  private void log(String e) {
    if (events != null) {
      events.add(e);
    }
  }

  @Override
  public synchronized double gaussian(double sigma) {
    log("gaussian");
    return sigma * NearestNeighboursTest.nextGaussian(rnd);
  }

  @Override
  public synchronized double laplace(double b) {
    log("laplace");
    double u = rnd.nextDouble() - 0.5;
    return -b * Math.signum(u) * Math.log1p(-2 * Math.abs(u));
  }

  @Override
  public long discreteGaussian(double sigma) {
    throw new UnsupportedOperationException("not needed by these tests");
  }

  @Override
  public long discreteLaplace(double b) {
    throw new UnsupportedOperationException("not needed by these tests");
  }

  @Override
  public synchronized boolean bernoulli(double p) {
    log("bernoulli");
    return rnd.nextDouble() < p;
  }

  @Override
  public boolean isPrivate() {
    return false;
  }

  @Override
  public String description() {
    return "seeded test source (not private)";
  }
}
