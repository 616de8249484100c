package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DownstreamClassifierTest {

  private static final Label SPAM = Label.of("spam");
  private static final Label HAM = Label.of("ham");

  /** Two Gaussian blobs 6 sd apart along every axis, labelled by blob. */
  private static EmbeddingMatrix blobs(int n, long seed, List<Label> labels) {
    SplittableRandom r = new SplittableRandom(seed);
    float[][] x = new float[n][8];
    for (int i = 0; i < n; i++) {
      boolean spam = r.nextBoolean();
      labels.add(spam ? SPAM : HAM);
      for (int j = 0; j < 8; j++) {
        x[i][j] = (float) (TestData.normal(r) + (spam ? 3 : -3));
      }
    }
    return EmbeddingMatrix.of(x);
  }

  @Test
  void separableDataIsLearned() {
    List<Label> ytr = new ArrayList<>();
    List<Label> yte = new ArrayList<>();
    EmbeddingMatrix train = blobs(300, 1, ytr);
    EmbeddingMatrix test = blobs(500, 2, yte);
    DownstreamAccuracy acc = DownstreamClassifier.evaluate(train, ytr, test, yte);
    // the Bayes error here is Phi(-3 sqrt(8)) ~ 1e-17: anything but ~1 is a bug
    assertThat(acc.accuracy()).isGreaterThanOrEqualTo(0.998);
    assertThat(acc.perClass()).extracting(ClassCounts::label).containsExactly(HAM, SPAM);
    ClassCounts spam = acc.perClass().get(1);
    assertThat(spam.trainCount()).isEqualTo((int) ytr.stream().filter(SPAM::equals).count());
    assertThat(spam.testCount()).isEqualTo((int) yte.stream().filter(SPAM::equals).count());
  }

  /**
   * Test labels are fair coins independent of everything the classifier sees, so the number of
   * correct predictions is Binomial(2000, 1/2) whatever the model. The accepted band [891, 1109]
   * is the two-sided binomial quantile for a false-failure rate of 1e-6 (scipy.stats.binom, in
   * reference.py).
   */
  @Test
  void independentLabelsGiveChanceAccuracy() {
    JsonNode band = Reference.get().get("binomial_band");
    int n = band.get("n").asInt();
    List<Label> ytr = new ArrayList<>();
    EmbeddingMatrix train = blobs(300, 3, ytr);
    List<Label> ignored = new ArrayList<>();
    EmbeddingMatrix test = blobs(n, 4, ignored);
    SplittableRandom coins = new SplittableRandom(5);
    List<Label> yte = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      yte.add(coins.nextBoolean() ? SPAM : HAM);
    }
    DownstreamAccuracy acc = DownstreamClassifier.evaluate(train, ytr, test, yte);
    assertThat(acc.correct()).isBetween(band.get("low").asInt(), band.get("high").asInt());
  }

  @Test
  void singleTrainingClassAndUnseenTestLabel() {
    EmbeddingMatrix train = TestData.gaussian(5, 3, 0, 1);
    EmbeddingMatrix test = TestData.gaussian(4, 3, 0, 2);
    Label other = Label.of("other");
    DownstreamAccuracy acc =
        DownstreamClassifier.evaluate(
            train, List.of(HAM, HAM, HAM, HAM, HAM), test, List.of(HAM, other, HAM, other));
    assertThat(acc.correct()).isEqualTo(2);
    assertThat(acc.accuracy()).isEqualTo(0.5);
    assertThat(acc.perClass())
        .containsExactly(new ClassCounts(HAM, 5, 2, 2, 4), new ClassCounts(other, 0, 2, 0, 0));
  }

  @Test
  void deterministic() {
    List<Label> ytr = new ArrayList<>();
    List<Label> yte = new ArrayList<>();
    EmbeddingMatrix train = TestData.gaussian(80, 4, 0, 9);
    EmbeddingMatrix test = TestData.gaussian(80, 4, 0, 10);
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 80; i++) {
      ytr.add(r.nextBoolean() ? SPAM : HAM);
      yte.add(r.nextBoolean() ? SPAM : HAM);
    }
    assertThat(DownstreamClassifier.evaluate(train, ytr, test, yte))
        .isEqualTo(DownstreamClassifier.evaluate(train, ytr, test, yte));
  }

  @Test
  void rejectsBadInputNamingIt() {
    EmbeddingMatrix a = TestData.gaussian(3, 2, 0, 1);
    assertThatThrownBy(() -> DownstreamClassifier.evaluate(a, List.of(HAM), a, List.of(HAM, HAM, HAM)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("trainLabels must have one label per row, got trainLabels.size=1 rows=3");
    assertThatThrownBy(() -> ClassifierOptions.defaults().withC(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("c=NaN");
  }
}
