package dev.secpe.core;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a run may assume about the labels of the private data. Labels are not free: the label set
 * and its proportions are private unless the caller declares them public.
 *
 * <ul>
 *   <li>{@link Unlabelled}: records carry no label.
 *   <li>{@link DeclaredPublic}: the caller asserts that the labels and their proportions are public
 *       knowledge (e.g. a documented class balance); nothing is charged for them.
 *   <li>{@link ToBeReleased}: the label names are public (declared by the caller, never read off the
 *       private data); their proportions are released through a noisy histogram charged to the
 *       ledger.
 * </ul>
 */
public sealed interface LabelSet {

  /** The label names, sorted (empty when unlabelled). */
  SortedSet<Label> labels();

  /** No labels. */
  static LabelSet unlabelled() {
    return Unlabelled.INSTANCE;
  }

  /**
   * Labels and proportions declared public by the caller.
   *
   * @param proportions each label's share; non-negative, finite, summing to 1 within 1e-9
   */
  static LabelSet declaredPublic(Map<Label, Double> proportions) {
    return new DeclaredPublic(proportions);
  }

  /** Public label names whose proportions are to be released with noise. */
  static LabelSet toBeReleased(Collection<Label> labels) {
    return new ToBeReleased(new TreeSet<>(labels));
  }

  /** Records carry no label. */
  enum Unlabelled implements LabelSet {
    /** The only instance. */
    INSTANCE;

    @Override
    public SortedSet<Label> labels() {
      return new TreeSet<>();
    }
  }

  /**
   * Labels and proportions the caller declares public.
   *
   * @param proportions label to share; an unmodifiable copy in insertion order
   */
  record DeclaredPublic(Map<Label, Double> proportions) implements LabelSet {

    /** Validates: non-empty, each share in [0, 1], total 1 within 1e-9. */
    public DeclaredPublic {
      Objects.requireNonNull(proportions, "proportions");
      if (proportions.isEmpty()) {
        throw new IllegalArgumentException("declared public label proportions must not be empty");
      }
      double total = 0;
      Map<Label, Double> copy = new LinkedHashMap<>();
      for (Map.Entry<Label, Double> e : proportions.entrySet()) {
        Label label = Objects.requireNonNull(e.getKey(), "label");
        Double share = e.getValue();
        if (share == null || !(share >= 0 && share <= 1)) {
          throw new IllegalArgumentException(
              "proportion of label '" + label + "' must be in [0, 1], got " + share);
        }
        total += share;
        copy.put(label, share);
      }
      if (!(Math.abs(total - 1) <= 1e-9)) {
        throw new IllegalArgumentException("label proportions must sum to 1, got sum=" + total);
      }
      proportions = Collections.unmodifiableMap(copy);
    }

    @Override
    public SortedSet<Label> labels() {
      return new TreeSet<>(proportions.keySet());
    }
  }

  /**
   * Public label names whose proportions are released under DP.
   *
   * @param labels the names; at least one
   */
  record ToBeReleased(SortedSet<Label> labels) implements LabelSet {

    /** Validates and copies. */
    public ToBeReleased {
      Objects.requireNonNull(labels, "labels");
      if (labels.isEmpty()) {
        throw new IllegalArgumentException("label set to be released must not be empty");
      }
      labels = Collections.unmodifiableSortedSet(new TreeSet<>(labels));
    }

    /** The names as a list, sorted. */
    public List<Label> asList() {
      return List.copyOf(labels);
    }
  }
}
