package dev.secpe.evolution.engine;

import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Resolves the label groups of a run without reading the label set off the private data. */
public final class Labels {

  private Labels() {}

  /**
   * The ordered labels of the run: empty when the private data is unlabelled; otherwise the
   * caller's declared set, which every private label must belong to. The set itself is never taken
   * from the private records (that would release it without noise).
   */
  public static List<Label> of(boolean labelled, Optional<LabelSet> declared) {
    if (!labelled) {
      return List.of();
    }
    LabelSet set =
        declared.orElseThrow(
            () ->
                new IllegalStateException(
                    "the private records are labelled, but no label set was declared: call"
                        + " labels(LabelSet) with the public label names (and proportions if they"
                        + " are public); reading them off the private data would leak them"));
    // Every private label must be in the set: PrivateStore.groups checks it, naming positions only.
    return List.copyOf(new ArrayList<>(set.labels()));
  }
}
