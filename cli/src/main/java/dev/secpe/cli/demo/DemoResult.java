package dev.secpe.cli.demo;

import dev.secpe.core.report.PrivacyReport;
import dev.secpe.evaluation.FrechetDistance;
import java.util.List;

/**
 * One run of the demo and what it measured.
 *
 * @param method "secpe", "augpe", "dpga" or "ctcl"
 * @param ratio r/p, or {@code Double.POSITIVE_INFINITY} for the non-private baseline
 * @param seed the generation seed of this run
 * @param report the run's privacy report
 * @param fidPerRound FID of each round's survivors against the held-out private records, in
 *     the {@link DemoRunner#FID_COMPONENTS} leading principal components of their embeddings
 * @param fidelityPerRound for each round's survivors, the mean cosine similarity of a survivor to
 *     its nearest real private record ({@link dev.secpe.evaluation.NearestSimilarity}; higher is
 *     closer)
 * @param coveragePerRound for each round's survivors, the mean cosine similarity of a real private
 *     record to its nearest survivor
 * @param kidPerRound KID ({@link dev.secpe.evaluation.KernelDistance}: unbiased, in the full
 *     dimension, no projection) of each round's survivors against the real private set
 * @param fid the same FID of the final synthetic set
 * @param fullFid FID of the final synthetic set in the embedder's full dimension (biased upwards
 *     at this sample size: see {@code PrincipalProjection})
 * @param publicBasisFid FID of the final synthetic set in the leading principal components of the
 *     public embeddings (the basis earlier versions of the demo used)
 * @param mauve MAUVE of the final synthetic set against the real private set
 * @param accuracy downstream accuracy on the held-out real records
 * @param lengthW1 1-Wasserstein distance, in words, between the synthetic lengths and those of the
 *     held-out real records
 * @param finalVotes the (noisy) scores of the last round's candidates
 * @param syntheticLengths word counts of the final synthetic texts
 * @param samples a few final synthetic texts (never private ones)
 * @param distinct distinct texts in the final synthetic set ({@link dev.secpe.evaluation.Duplicates})
 * @param nearDuplicates distinct final texts with another at cosine >= {@link
 *     dev.secpe.evaluation.Duplicates#DEFAULT_THRESHOLD}
 * @param fidParts the final set's FID (the one in {@code fid}) split into its mean and covariance
 *     terms, with the spread of the final set relative to the held-out records'
 * @param labelDistance total variation distance between the final set's label shares and the
 *     held-out records' (0: the same mix of labels)
 */
public record DemoResult(
    String method,
    double ratio,
    long seed,
    PrivacyReport report,
    List<Double> fidPerRound,
    List<Double> fidelityPerRound,
    List<Double> coveragePerRound,
    List<Double> kidPerRound,
    double fid,
    double fullFid,
    double publicBasisFid,
    double mauve,
    double accuracy,
    double lengthW1,
    double[] finalVotes,
    int[] syntheticLengths,
    List<String> samples,
    int distinct,
    int nearDuplicates,
    FrechetDistance.Parts fidParts,
    double labelDistance) {

  /** "2", "10" or "inf". */
  public String ratioLabel() {
    return Double.isInfinite(ratio) ? "inf" : String.valueOf((long) ratio);
  }

  /** FID of the first round's survivors (for CTCL, which has no rounds, the final set's). */
  public double firstFid() {
    return fidPerRound.isEmpty() ? fid : fidPerRound.get(0);
  }

  /** KID of the final synthetic set. */
  public double kid() {
    return kidPerRound.get(kidPerRound.size() - 1);
  }

  /** Fidelity of the first round's survivors (for CTCL the final set's). */
  public double firstFidelity() {
    return fidelityPerRound.get(0);
  }

  /** Fidelity of the final synthetic set. */
  public double fidelity() {
    return fidelityPerRound.get(fidelityPerRound.size() - 1);
  }

  /** Coverage of the final synthetic set. */
  public double coverage() {
    return coveragePerRound.get(coveragePerRound.size() - 1);
  }

  /** The calibrated noise, or NaN for the baseline. */
  public double sigma() {
    return report.sigma().isPresent() ? report.sigma().getAsDouble() : Double.NaN;
  }
}
