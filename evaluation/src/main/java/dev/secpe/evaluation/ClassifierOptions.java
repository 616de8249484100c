package dev.secpe.evaluation;

/**
 * Settings of the {@link DownstreamClassifier}: L2-regularised logistic regression (LIBLINEAR
 * solver {@code L2R_LR}, primal trust-region Newton), with an intercept feature of value 1 that is regularised like
 * the weights (LIBLINEAR's default).
 *
 * @param c the inverse regularisation strength C (LIBLINEAR's {@code -c}), finite and > 0
 * @param tolerance the solver's stopping tolerance (LIBLINEAR's {@code -e}), finite and > 0
 * @param seed the seed of the random generator handed to LIBLINEAR (the primal solver draws no
 *     random numbers; the seed keeps any solver change reproducible)
 */
public record ClassifierOptions(double c, double tolerance, long seed) {

  /** Validates eagerly. */
  public ClassifierOptions {
    Checks.positiveFinite(c, "c");
    Checks.positiveFinite(tolerance, "tolerance");
  }

  /** C = 1, tolerance 0.01 (LIBLINEAR's defaults for this solver), seed 0. */
  public static ClassifierOptions defaults() {
    return new ClassifierOptions(1.0, 0.01, 0L);
  }

  /** A copy with C. */
  public ClassifierOptions withC(double c) {
    return new ClassifierOptions(c, tolerance, seed);
  }

  /** A copy with the seed. */
  public ClassifierOptions withSeed(long seed) {
    return new ClassifierOptions(c, tolerance, seed);
  }
}
