package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.secpe.core.EmbeddingMatrix;
import org.junit.jupiter.api.Test;

class MauveTest {

  /**
   * The frontier and its area on fixed assignments/histograms, against the from-the-paper numpy
   * implementation in reference.py (so k-means plays no part).
   */
  @Test
  void matchesNumpyFrontierOnFixedHistograms() {
    for (JsonNode c : Reference.get().get("mauve")) {
      String name = c.get("name").asText();
      MauveOptions o =
          MauveOptions.defaults()
              .withGridSize(c.get("grid").asInt())
              .withScalingConstant(c.get("c").asDouble());
      MauveResult r =
          c.has("p_labels")
              ? Mauve.fromAssignments(
                  Reference.ints(c.get("p_labels")), Reference.ints(c.get("q_labels")),
                  c.get("clusters").asInt(), o)
              : Mauve.fromHistograms(
                  Reference.vector(c.get("p")), Reference.vector(c.get("q")), o);
      assertThat(r.mauve()).as(name).isCloseTo(c.get("mauve").asDouble(), within(1e-12));
      double[][] expected = Reference.matrix(c.get("curve"));
      double[][] actual = r.divergenceCurve();
      assertThat(actual.length).as(name).isEqualTo(expected.length);
      for (int i = 0; i < expected.length; i++) {
        assertThat(actual[i][0]).as(name + " x" + i).isCloseTo(expected[i][0], within(1e-12));
        assertThat(actual[i][1]).as(name + " y" + i).isCloseTo(expected[i][1], within(1e-12));
      }
    }
  }

  @Test
  void oneForEqualDistributions() {
    double[] p = {0.1, 0.2, 0.3, 0.4};
    // R = lam P + (1 - lam) P equals P only up to rounding, so KL is ~1e-17, not 0
    assertThat(Mauve.fromHistograms(p, p, MauveOptions.defaults()).mauve())
        .isCloseTo(1.0, within(1e-12));
    assertThat(Mauve.fromHistograms(new double[] {1, 0, 3}, new double[] {2, 0, 6},
        MauveOptions.defaults()).mauve()).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void oneForIdenticalEmbeddingSets() {
    EmbeddingMatrix a = TestData.gaussian(80, 10, 0, 3);
    MauveResult r = Mauve.compute(a, a);
    assertThat(r.clusters()).isEqualTo(8); // max(2, round(80 / 10))
    assertThat(r.mauve()).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void nearZeroForFarApartSetsAndHighForSamples() {
    EmbeddingMatrix a = TestData.gaussian(100, 6, 0, 4);
    EmbeddingMatrix far = TestData.gaussian(100, 6, 0, 5);
    float[] t = {40, 0, 0, 0, 0, 0};
    far = TestData.translate(far, t);
    MauveOptions noNorm = MauveOptions.defaults().withL2Normalize(false).withClusters(10);
    // the joint k-means puts the two clouds in disjoint clusters: the disjoint-support value
    assertThat(Mauve.compute(a, far, noNorm).mauve()).isLessThan(0.01);
    EmbeddingMatrix same = TestData.gaussian(100, 6, 0, 6);
    assertThat(Mauve.compute(a, same, noNorm).mauve()).isGreaterThan(0.8);
  }

  @Test
  void deterministicForASeed() {
    EmbeddingMatrix a = TestData.gaussian(60, 8, 0, 7);
    EmbeddingMatrix b = TestData.gaussian(50, 8, 0.3, 8);
    MauveOptions o = MauveOptions.defaults().withRestarts(2);
    assertThat(Mauve.compute(a, b, o)).isEqualTo(Mauve.compute(a, b, o));
  }

  @Test
  void rejectsBadInputNamingIt() {
    MauveOptions o = MauveOptions.defaults();
    assertThatThrownBy(() -> Mauve.fromHistograms(new double[] {1, Double.NaN}, new double[] {1, 1}, o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("p[1] must be finite and >= 0, got NaN");
    assertThatThrownBy(() -> Mauve.fromHistograms(new double[] {0, 0}, new double[] {1, 1}, o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("p must have positive total mass");
    assertThatThrownBy(() -> Mauve.fromAssignments(new int[] {0, 3}, new int[] {1}, 3, o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pLabels[1] must be in [0, 3), got 3");
    assertThatThrownBy(() -> o.withScalingConstant(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scalingConstant=NaN");
    assertThatThrownBy(() -> o.withExplainedVariance(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("explainedVariance=0.0");
    assertThatThrownBy(() -> o.withClusters(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusters=1");
    EmbeddingMatrix a = TestData.gaussian(3, 2, 0, 1);
    assertThatThrownBy(() -> Mauve.compute(a, a, o.withClusters(7)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusters=7 rows=6");
  }
}
