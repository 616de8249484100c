package dev.secpe.evaluation;

/**
 * Settings of {@link Mauve}. Defaults follow the reference implementation of Pillutla et al.
 * (krishnap25/mauve) except where noted.
 *
 * @param clusters the number of k-means clusters (histogram bins); 0 means automatic: {@code
 *     max(2, round(min(n_p, n_q) / 10))}, as the reference does
 * @param l2Normalize whether rows are scaled to unit L2 norm before PCA and k-means (reference:
 *     yes)
 * @param explainedVariance PCA keeps the fewest leading components whose cumulative explained
 *     variance ratio reaches this value, in (0, 1]; 1 disables PCA (reference: 0.9)
 * @param restarts k-means runs from different seeded k-means++ starts, the lowest inertia kept
 *     (reference: 5; default here 1 to keep evaluation of thousands of texts fast on a laptop)
 * @param maxIterations the most Lloyd iterations per run (reference: 500; default 300; runs stop
 *     when no assignment changes)
 * @param gridSize the number of mixture weights lambda, spaced evenly over [1e-6, 1 - 1e-6]
 *     (reference: 25)
 * @param scalingConstant the constant c in exp(-c KL) (paper and reference: 5)
 * @param seed the seed of k-means++ initialisation (split per restart)
 */
public record MauveOptions(
    int clusters,
    boolean l2Normalize,
    double explainedVariance,
    int restarts,
    int maxIterations,
    int gridSize,
    double scalingConstant,
    long seed) {

  /** Validates eagerly. */
  public MauveOptions {
    if (clusters < 0 || clusters == 1) {
      throw new IllegalArgumentException(
          "clusters must be 0 (automatic) or >= 2, got clusters=" + clusters);
    }
    if (!(explainedVariance > 0 && explainedVariance <= 1)) {
      throw new IllegalArgumentException(
          "explainedVariance must be in (0, 1], got explainedVariance=" + explainedVariance);
    }
    Checks.positive(restarts, "restarts");
    Checks.positive(maxIterations, "maxIterations");
    if (gridSize < 2) {
      throw new IllegalArgumentException("gridSize must be >= 2, got gridSize=" + gridSize);
    }
    Checks.positiveFinite(scalingConstant, "scalingConstant");
  }

  /** Automatic clusters, L2 normalisation, PCA to 0.9, 1 restart, 300 iterations, grid 25, c 5. */
  public static MauveOptions defaults() {
    return new MauveOptions(0, true, 0.9, 1, 300, 25, 5.0, 25L);
  }

  /** A copy with {@code clusters} (0 = automatic). */
  public MauveOptions withClusters(int clusters) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** A copy with the given PCA explained-variance target (1 disables PCA). */
  public MauveOptions withExplainedVariance(double explainedVariance) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** A copy with or without row L2 normalisation. */
  public MauveOptions withL2Normalize(boolean l2Normalize) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** A copy with {@code restarts} k-means runs. */
  public MauveOptions withRestarts(int restarts) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** A copy with the given grid size. */
  public MauveOptions withGridSize(int gridSize) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** A copy with the scaling constant c. */
  public MauveOptions withScalingConstant(double scalingConstant) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** A copy with the k-means seed. */
  public MauveOptions withSeed(long seed) {
    return new MauveOptions(
        clusters, l2Normalize, explainedVariance, restarts, maxIterations, gridSize,
        scalingConstant, seed);
  }

  /** The automatic cluster count for sets of sizes {@code np} and {@code nq}. */
  static int autoClusters(int np, int nq) {
    return Math.max(2, (int) Math.round(Math.min(np, nq) / 10.0));
  }
}
