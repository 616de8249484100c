package dev.secpe.evolution.dpga;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SimilaritySuppressionTest {

  private static float[] unit(double angle) {
    return new float[] {(float) Math.cos(angle), (float) Math.sin(angle)};
  }

  @Test
  void aNearDuplicateOfAWinnerIsSkipped() {
    // 0 and 1 are 0.05 rad apart (cos = 0.99875); 2 is orthogonal to both.
    float[][] e = {unit(0), unit(0.05), unit(Math.PI / 2)};
    double[] votes = {10, 9, 1};
    SimilaritySuppression.Outcome o = SimilaritySuppression.select(votes, e, 0.9, 0.01, 2);
    assertThat(o.selected()).containsExactly(0, 2);
    assertThat(o.finalTau()).isEqualTo(0.9);
  }

  @Test
  void tauGrowsUntilEnoughSurvive() {
    // Pairwise cosines: cos(0.3) = 0.955, cos(0.6) = 0.825.
    float[][] e = {unit(0), unit(0.3), unit(0.6)};
    double[] votes = {3, 2, 1};
    SimilaritySuppression.Outcome o = SimilaritySuppression.select(votes, e, 0.5, 0.01, 3);
    assertThat(o.selected()).containsExactly(0, 1, 2);
    // Needs tau >= cos(0.3) = 0.9553: the first grid point at or above it is 0.96.
    assertThat(o.finalTau()).isCloseTo(0.96, within(1e-9));
  }

  @Test
  void exactDuplicatesAreFilledByVotesOnceTauReachesOne() {
    float[][] e = {unit(0), unit(0), unit(0)};
    SimilaritySuppression.Outcome o =
        SimilaritySuppression.select(new double[] {1, 3, 2}, e, 0.99, 0.01, 3);
    assertThat(o.selected()).containsExactly(1, 2, 0);
  }
}
