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
 * @param fidComponents the number of leading principal components of the real set that {@code
 *     fidProjected} is read in (the requested number, less where the real set is too small)
 * @param fidProjected the Fréchet distance in the real set's {@code fidComponents} leading
 *     principal components ({@link PrincipalProjection}): at a few hundred texts FID in the full
 *     dimension carries a bias that hides differences between synthetic sets; this is the reading
 *     to compare them by
 * @param kid the unbiased kernel distance with its standard error ({@link KernelDistance})
 * @param duplicates exact copies and near-duplicates in the synthetic set ({@link Duplicates})
 * @param publicBaseline what a random sample of public text of the synthetic set's size scores,
 *     when public text was given ({@link Evaluation.Builder#publicBaseline})
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
    Optional<DownstreamAccuracy> downstream,
    int fidComponents,
    double fidProjected,
    KernelDistance.Estimate kid,
    Duplicates duplicates,
    Optional<PublicBaseline> publicBaseline) {

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
    Checks.positive(fidComponents, "fidComponents");
    if (!(fidProjected >= 0) || !Double.isFinite(fidProjected)) {
      throw new IllegalArgumentException("fidProjected must be finite and >= 0, got fidProjected=" + fidProjected);
    }
    Objects.requireNonNull(kid, "kid");
    Objects.requireNonNull(duplicates, "duplicates");
    Objects.requireNonNull(publicBaseline, "publicBaseline");
  }

  /**
   * What a random sample of public text scores against the same real set, in the same basis.
   *
   * @param size the sample's size (the synthetic set's, or the whole public set when smaller)
   * @param seed the seed the sample was drawn with
   * @param fidProjected its FID in the real set's leading components
   * @param kid its KID with standard error
   */
  public record PublicBaseline(int size, long seed, double fidProjected, KernelDistance.Estimate kid) {}

  /**
   * How much closer than the public sample the synthetic set is, on {@code fidProjected}: the
   * baseline's value less the synthetic set's (positive: the synthetic data is closer to the real
   * data than public text it could have been replaced by).
   */
  public Optional<Double> fidGainOverPublic() {
    return publicBaseline.map(b -> b.fidProjected() - fidProjected);
  }

  /** The same gain on KID: the baseline's KID less the synthetic set's. */
  public Optional<Double> kidGainOverPublic() {
    return publicBaseline.map(b -> b.kid().value() - kid.value());
  }

  private static void checkCosine(double v, String name) {
    if (!(v >= -1 && v <= 1)) {
      throw new IllegalArgumentException(name + " must be in [-1, 1], got " + name + "=" + v);
    }
  }
}
