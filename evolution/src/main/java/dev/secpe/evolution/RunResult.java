package dev.secpe.evolution;

import dev.secpe.core.SyntheticDataset;
import dev.secpe.core.report.PrivacyReport;
import java.util.Objects;

/**
 * What a run leaves: the synthetic dataset and its privacy report.
 *
 * @param dataset the synthetic texts with labels and provenance
 * @param report every mechanism, its noise, and the composed guarantee
 */
public record RunResult(SyntheticDataset dataset, PrivacyReport report) {

  /** Validates eagerly. */
  public RunResult {
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(report, "report");
  }
}
