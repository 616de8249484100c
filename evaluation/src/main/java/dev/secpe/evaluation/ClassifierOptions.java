package dev.secpe.evaluation;

/**
 * Settings of the {@link DownstreamClassifier}: L2-regularised logistic regression (LIBLINEAR's
 * model {@code L2R_LR} and its stopping rule, fitted by a Newton method with conjugate-gradient
 * steps), with an intercept feature of value 1 that is regularised like the weights (LIBLINEAR's
 * default).
 *
 * @param c the inverse regularisation strength C (LIBLINEAR's {@code -c}), finite and > 0
 * @param tolerance the solver's stopping tolerance (LIBLINEAR's {@code -e}): it stops once the
 *     gradient's norm is at most {@code tolerance * max(min(pos, neg), 1) / n} times its norm at
 *     zero; finite and > 0
 * @param seed a seed for the solver: the solver draws no random numbers (it did not under
 *     LIBLINEAR either), so the result does not depend on it; kept so that a solver that does
 *     draw stays reproducible
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
