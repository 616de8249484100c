package dev.secpe.evaluation;

import dev.secpe.core.Label;
import java.util.Objects;

/**
 * Per-class counts of a downstream evaluation.
 *
 * @param label the class
 * @param trainCount synthetic training records with this label
 * @param testCount real test records with this label
 * @param correct real test records with this label predicted as it
 * @param predicted real test records (of any label) predicted as this label
 */
public record ClassCounts(Label label, int trainCount, int testCount, int correct, int predicted) {

  /** Validates eagerly. */
  public ClassCounts {
    Objects.requireNonNull(label, "label");
    if (trainCount < 0 || testCount < 0 || predicted < 0 || correct < 0 || correct > testCount
        || correct > predicted) {
      throw new IllegalArgumentException(
          "inconsistent counts for label '" + label + "': trainCount=" + trainCount + " testCount="
              + testCount + " correct=" + correct + " predicted=" + predicted);
    }
  }
}
