package dev.secpe.accounting.noise;

/**
 * Where privacy noise comes from. Production sources are backed by {@link
 * java.security.SecureRandom}; a seeded source exists only behind {@link
 * NoiseSources#reproducibleForTests(long)} and reports {@link #isPrivate()} {@code false}, so a
 * run that used it is marked non-private in its report.
 *
 * <p>Implementations are thread-safe.
 */
public interface NoiseSource {

  /** A sample of N(0, sigma^2) for real-valued releases (sigma > 0). */
  double gaussian(double sigma);

  /** Fills {@code out} with independent N(0, sigma^2) samples. */
  default void gaussian(double sigma, double[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = gaussian(sigma);
    }
  }

  /** A sample of the Laplace distribution with scale {@code b} (> 0). */
  double laplace(double b);

  /**
   * An exact sample of the discrete Gaussian N_Z(0, sigma^2) on the integers
   * (Canonne, Kamath and Steinke 2020). Privacy note: for sigma below about 20 its (epsilon,
   * delta) curve is worse than the continuous Gaussian's (delta higher by up to 19%), so such
   * releases must not be accounted with the continuous formulas; see {@link NoiseSources}.
   */
  long discreteGaussian(double sigma);

  /** An exact sample of the discrete Laplace distribution with scale {@code b} on the integers. */
  long discreteLaplace(double b);

  /** A Bernoulli(p) draw, p in [0, 1]. */
  boolean bernoulli(double p);

  /**
   * The source to draw release {@code releaseId} from. Secure sources return themselves: their
   * draws are fresh whatever the order. The reproducible test source returns a stream seeded by
   * its seed and the release id, so a run that is killed and resumed draws exactly what an
   * uninterrupted run would (the releases drawn before the kill come from the checkpoint).
   */
  default NoiseSource forRelease(String releaseId) {
    return this;
  }

  /** {@code true} for sources fit for privacy (secure randomness); {@code false} for test sources. */
  boolean isPrivate();

  /** A short description for reports, e.g. "SecureRandom(NativePRNG)" or "seeded test source". */
  String description();
}
