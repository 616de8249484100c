package dev.secpe.evolution.ctcl;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PlanCalibrator;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.Sensitivity;
import dev.secpe.accounting.ledger.PrivacyPlan;
import java.util.List;

/**
 * CTCL's privacy plan: the topic histogram and the DP fine-tuning, and the least fine-tuning noise
 * with which both meet the budget (solved at {@code build()}, before any private record is read).
 */
public final class CTCLPlan {

  /** The release id of the topic histogram. */
  public static final String HISTOGRAM = "ctcl-topic-histogram";

  /** The release id of the DP fine-tuning. */
  public static final String FINE_TUNING = "ctcl-dp-finetune";

  private CTCLPlan() {}

  /**
   * The plan of a run of {@code config} with its solved {@code accounting} (null for a
   * non-private run): the topic histogram, then the DP fine-tuning at clip norm C.
   */
  public static PrivacyPlan of(CTCLOptions config, FineTuningNoise accounting) {
    if (accounting == null) {
      return PrivacyPlan.nonPrivate();
    }
    return PrivacyPlan.limitedTo(config.budget())
        .calibrated(histogramRelease(config.histogramSigma()))
        .calibrated(fineTuningRelease(accounting.noiseMultiplier(), accounting.samplingRate(), config.steps(), config.clipNorm()))
        .build();
  }

  /** The releases of a run with these parameters, in charge order (none drawn). */
  public static List<Release> plan(double histogramSigma, double z, double q, int steps) {
    Release fine = fineTuningRelease(z, q, steps, 1.0);
    return histogramSigma > 0 ? List.of(histogramRelease(histogramSigma), fine) : List.of(fine);
  }

  /** The noisy (label, topic) histogram's release at noise {@code sigma}. */
  public static Release histogramRelease(double sigma) {
    return Release.gaussian(HISTOGRAM, "one record: one bin of the (label, topic) histogram", sigma, Sensitivity.l2(1.0));
  }

  /**
   * DP-SGD's release: {@code steps} Poisson-subsampled (rate {@code q}) Gaussian steps of noise
   * multiplier {@code z}, clip {@code clip}.
   */
  public static Release fineTuningRelease(double z, double q, int steps, double clip) {
    return new Release(
        FINE_TUNING,
        "Poisson-subsampled Gaussian (DP-SGD)",
        "one record: its clipped contribution to each step's sum",
        clip,
        z * clip,
        new PrivacyCost.SubsampledGaussian(z, q, steps));
  }

  /**
   * The least z with which the histogram (multiplier {@code histogramSigma}; 0 for none) and K
   * steps of the Poisson-subsampled Gaussian at rate q compose, by the ledger's PLD accountant,
   * to at most {@code budget.epsilon()} at {@code budget.delta()}.
   */
  public static FineTuningNoise calibrate(DpBudget budget, double histogramSigma, double q, int steps) {
    double eps = budget.epsilon();
    double delta = budget.delta();
    double z =
        PlanCalibrator.leastMultiplier(
            s -> plan(histogramSigma, s, q, steps),
            budget,
            1e-3,
            () -> "budget unreachable: epsilon=" + eps + " at delta=" + delta + " with the topic histogram"
                + " (sigma=" + histogramSigma + ") leaves no room for " + steps + " fine-tuning steps"
                + " (try a larger epsilon or histogram noise)");
    double hEps = histogramSigma > 0 ? PlanCalibrator.epsilon(List.of(histogramRelease(histogramSigma)), delta) : 0;
    return new FineTuningNoise(
        z,
        q,
        hEps,
        PlanCalibrator.epsilon(List.of(fineTuningRelease(z, q, steps, 1.0)), delta),
        PlanCalibrator.epsilon(plan(histogramSigma, z, q, steps), delta));
  }

}
