package dev.secpe.evolution.augpe;

import dev.secpe.evolution.engine.Selection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.Provenance;
import dev.secpe.core.SyntheticText;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LineagesTest {

  private static SyntheticText survivor(String id) {
    return new SyntheticText(id, "t " + id, Optional.empty(), Provenance.initial());
  }

  private static SyntheticText child(String id, String parent) {
    return new SyntheticText(id, "t " + id, Optional.empty(), new Provenance(1, List.of(parent), Provenance.FILL));
  }

  @Test
  void aLineageThatSplitsItsVotesKeepsItsShare() {
    // Lineage a: a survivor and three near-copies that split 8 votes (2 each); b, c, d: lone
    // survivors with 3 votes each. Rank selection of 4 takes b, c, d and one of a (1 of 4 slots
    // for 8 of 17 votes). By lineage mass 8:3:3:3 (largest remainder: 1.88, 0.71, 0.71, 0.71) a
    // gets 2 slots, filled with its best-voted members, and b and c one each.
    List<SyntheticText> pop = List.of(survivor("a"), survivor("b"), survivor("c"), survivor("d"),
        child("a1", "a"), child("a2", "a"), child("a3", "a"));
    double[] votes = {2, 3, 3, 3, 2, 2, 2};
    int[] rows = {0, 1, 2, 3, 4, 5, 6};
    assertThat(Arrays.stream(Selection.topN(votes, 4)).filter(i -> pop.get(i).id().startsWith("a")).count())
        .isEqualTo(1);
    int[] chosen = Lineages.select(votes, pop, rows, 4);
    assertThat(chosen).containsExactlyInAnyOrder(0, 4, 1, 2);
  }

  @Test
  void slotsALineageCannotFillGoToTheOthersAndNegativeVotesCountAsNone() {
    List<SyntheticText> pop = List.of(survivor("a"), survivor("b"), child("b1", "b"), survivor("c"));
    double[] votes = {10, 1, 1, -5};
    int[] chosen = Lineages.select(votes, pop, new int[] {0, 1, 2, 3}, 3);
    // a has one member only; its extra slots go to b (mass 2); c (negative) comes last.
    assertThat(chosen).containsExactlyInAnyOrder(0, 1, 2);
  }
}
