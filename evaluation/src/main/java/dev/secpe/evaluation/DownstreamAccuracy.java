package dev.secpe.evaluation;

import java.util.List;

/**
 * The outcome of a {@link DownstreamClassifier}: accuracy on real held-out records of a
 * classifier trained on synthetic records.
 *
 * @param accuracy correct / total, in [0, 1]
 * @param correct test records classified correctly
 * @param total test records
 * @param perClass counts per label (union of training and test labels), sorted by label
 */
public record DownstreamAccuracy(double accuracy, int correct, int total, List<ClassCounts> perClass) {

  /** Validates and copies. */
  public DownstreamAccuracy {
    if (total <= 0 || correct < 0 || correct > total) {
      throw new IllegalArgumentException(
          "need 0 <= correct <= total and total > 0, got correct=" + correct + " total=" + total);
    }
    if (!(accuracy >= 0 && accuracy <= 1)) {
      throw new IllegalArgumentException("accuracy must be in [0, 1], got accuracy=" + accuracy);
    }
    perClass = List.copyOf(perClass);
  }
}
