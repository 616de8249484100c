package dev.secpe.evaluation;

import java.util.Objects;
import java.util.Optional;

/**
 * Every metric of one {@link Evaluation}, immutable.
 *
 * @param syntheticCount the number of synthetic texts
 * @param realCount the number of real (held-out) texts
 * @param embedder the name of the embedder that produced the embeddings
 * @param fid the Fréchet distance between the embedding sets ({@link FrechetDistance}); lower is
 *     closer
 * @param precisionRecall manifold precision and recall ({@link ManifoldPrecisionRecall})
 * @param mauve MAUVE with its histograms and curve ({@link Mauve}); higher is closer
 * @param length distances between the word-count distributions ({@link LengthDistance})
 * @param selfSimilaritySynthetic mean pairwise cosine among synthetic embeddings ({@link
 *     SelfSimilarity})
 * @param selfSimilarityReal mean pairwise cosine among real embeddings
 * @param downstream accuracy on real records of a classifier trained on synthetic ones, present
 *     when both sets are labelled ({@link DownstreamClassifier})
 */
public record EvaluationReport(
    int syntheticCount,
    int realCount,
    String embedder,
    double fid,
    PrecisionRecall precisionRecall,
    MauveResult mauve,
    LengthDistance length,
    double selfSimilaritySynthetic,
    double selfSimilarityReal,
    Optional<DownstreamAccuracy> downstream) {

  /** Validates eagerly. */
  public EvaluationReport {
    Checks.positive(syntheticCount, "syntheticCount");
    Checks.positive(realCount, "realCount");
    Objects.requireNonNull(embedder, "embedder");
    if (!(fid >= 0) || !Double.isFinite(fid)) {
      throw new IllegalArgumentException("fid must be finite and >= 0, got fid=" + fid);
    }
    Objects.requireNonNull(precisionRecall, "precisionRecall");
    Objects.requireNonNull(mauve, "mauve");
    Objects.requireNonNull(length, "length");
    checkCosine(selfSimilaritySynthetic, "selfSimilaritySynthetic");
    checkCosine(selfSimilarityReal, "selfSimilarityReal");
    Objects.requireNonNull(downstream, "downstream");
  }

  private static void checkCosine(double v, String name) {
    if (!(v >= -1 && v <= 1)) {
      throw new IllegalArgumentException(name + " must be in [-1, 1], got " + name + "=" + v);
    }
  }
}
