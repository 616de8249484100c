package dev.secpe.core;

import java.util.Objects;
import java.util.Optional;

/**
 * A synthetic text: output of a generator, freely readable and releasable (it is derived from
 * private data only through accounted selection).
 *
 * @param id a unique id within its run, not blank
 * @param text the text, not blank (the engine stops a run whose generator returns a blank text)
 * @param label the label it was generated for, if any
 * @param provenance round, parents and operator
 */
public record SyntheticText(String id, String text, Optional<Label> label, Provenance provenance) {

  /** Validates eagerly. */
  public SyntheticText {
    Ids.require(id, "synthetic text");
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("synthetic text '" + id + "' must not be blank");
    }
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(provenance, "provenance");
  }
}
