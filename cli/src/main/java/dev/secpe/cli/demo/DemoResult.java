package dev.secpe.cli.demo;

import dev.secpe.core.report.PrivacyReport;
import java.util.List;

/**
 * One run of the demo and what it measured.
 *
 * @param method "secpe", "augpe" or "dpga"
 * @param ratio r/p, or {@code Double.POSITIVE_INFINITY} for the non-private baseline
 * @param report the run's privacy report
 * @param fidPerRound FID of each round's survivors against the real private set
 * @param fid FID of the final synthetic set
 * @param accuracy downstream accuracy on the held-out real records
 * @param finalVotes the (noisy) scores of the last round's candidates
 * @param syntheticLengths word counts of the final synthetic texts
 * @param samples a few final synthetic texts (never private ones)
 */
public record DemoResult(
    String method,
    double ratio,
    PrivacyReport report,
    List<Double> fidPerRound,
    double fid,
    double accuracy,
    double[] finalVotes,
    int[] syntheticLengths,
    List<String> samples) {

  /** "2", "10" or "inf". */
  public String ratioLabel() {
    return Double.isInfinite(ratio) ? "inf" : String.valueOf((long) ratio);
  }

  /** The calibrated noise, or NaN for the baseline. */
  public double sigma() {
    return report.sigma().isPresent() ? report.sigma().getAsDouble() : Double.NaN;
  }
}
