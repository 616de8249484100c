package dev.secpe.evolution.secpe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RepresentativeAllocationTest {

  /** Two representatives on the axes; candidates at angles around each. */
  private static final EmbeddingMatrix CENTRES = EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 1}});

  private static float[] at(double degrees) {
    double r = Math.toRadians(degrees);
    return new float[] {(float) Math.cos(r), (float) Math.sin(r)};
  }

  @Test
  void slotsFollowThePrivateMassAndEachRepresentativeTakesItsNearestCandidates() {
    // Candidates 0-4 near the x axis (0, 5, 10, 15, 20 degrees), 5-9 near the y axis (90, 85, ...).
    float[][] rows = new float[10][];
    for (int i = 0; i < 5; i++) {
      rows[i] = at(5 * i);
      rows[5 + i] = at(90 - 5 * i);
    }
    EmbeddingMatrix unit = EmbeddingMatrix.of(rows);
    int[] all = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    // Mass 3:1 over 4 slots -> 3 for the x representative, 1 for the y one.
    int[] chosen = RepresentativeAllocation.select(CENTRES, new double[] {30, 10}, unit, all, 4, null);
    assertThat(chosen).containsExactly(0, 1, 2, 5);
    // A representative with more slots than candidates passes the rest on.
    int[] more = RepresentativeAllocation.select(CENTRES, new double[] {90, 10}, unit, all, 8, null);
    assertThat(Arrays.stream(more).sorted().toArray()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    // Negative or zero mass: even split.
    int[] even = RepresentativeAllocation.select(CENTRES, new double[] {-3, 0}, unit, all, 2, null);
    assertThat(Arrays.stream(even).sorted().toArray()).containsExactly(0, 5);
  }
}
