package dev.secpe.evolution.engine;

import dev.secpe.core.Label;
import dev.secpe.llm.GenerationTask;
import java.util.List;
import java.util.Optional;

/**
 * A candidate still to be generated: the task for the generator and the provenance it will carry.
 *
 * @param task what the generator is asked to do (public or synthetic text only)
 * @param parentIds the synthetic parents' ids
 * @param operator the provenance operator (see {@link dev.secpe.core.Provenance})
 * @param label the label the child will carry
 */
public record Offspring(GenerationTask task, List<String> parentIds, String operator, Optional<Label> label) {

/** Copies the parent ids. */
  public Offspring {
    parentIds = List.copyOf(parentIds);
  }
}
