package dev.secpe.evolution;

import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Resolves the label groups of a run without reading the label set off the private data. */
final class Labels {

  private Labels() {}

  /**
   * The ordered labels of the run: empty when the private data is unlabelled; otherwise the
   * caller's declared set, which every private label must belong to. The set itself is never taken
   * from the private records (that would release it without noise).
   */
  static List<Label> of(PrivateDataset data, Optional<LabelSet> declared) {
    if (!data.isLabelled()) {
      return List.of();
    }
    LabelSet set =
        declared.orElseThrow(
            () ->
                new IllegalStateException(
                    "the private records are labelled, but no label set was declared: call"
                        + " labels(LabelSet) with the public label names (and proportions if they"
                        + " are public); reading them off the private data would leak them"));
    List<Label> labels = new ArrayList<>(set.labels());
    for (int i = 0; i < data.size(); i++) {
      PrivateRecord r = data.get(i);
      Label l = r.label().orElseThrow();
      if (!labels.contains(l)) {
        // Name the position, not the label: a label outside the declared set may itself be private.
        throw new IllegalArgumentException(
            "private record at index " + i + " has a label outside the declared label set");
      }
    }
    return List.copyOf(labels);
  }
}
