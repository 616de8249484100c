package dev.secpe.evaluation;

/**
 * Precision and recall of the synthetic manifold (Kynkäänniemi et al. 2019).
 *
 * @param precision the fraction of synthetic points inside the real manifold estimate, in [0, 1]
 * @param recall the fraction of real points inside the synthetic manifold estimate, in [0, 1]
 * @param k the neighbour rank that set the ball radii
 */
public record PrecisionRecall(double precision, double recall, int k) {

  /** Validates eagerly. */
  public PrecisionRecall {
    if (!(precision >= 0 && precision <= 1)) {
      throw new IllegalArgumentException("precision must be in [0, 1], got precision=" + precision);
    }
    if (!(recall >= 0 && recall <= 1)) {
      throw new IllegalArgumentException("recall must be in [0, 1], got recall=" + recall);
    }
    Checks.positive(k, "k");
  }
}
