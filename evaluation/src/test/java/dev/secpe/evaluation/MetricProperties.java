package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** Invariants of the metrics on random inputs. */
class MetricProperties {

  @Property(tries = 60)
  void fidIsNonNegativeAndSymmetric(
      @ForAll @IntRange(min = 2, max = 30) int n1,
      @ForAll @IntRange(min = 2, max = 30) int n2,
      @ForAll @IntRange(min = 1, max = 12) int d,
      @ForAll long seed) {
    double[][] a = doubles(n1, d, seed);
    double[][] b = doubles(n2, d, seed + 1);
    double ab = FrechetDistance.between(a, b);
    double ba = FrechetDistance.between(b, a);
    assertThat(ab).isGreaterThanOrEqualTo(0.0);
    // n <= d often: singular covariances, whose zero eigenvalues carry rounding noise of order
    // 1e-16 ||C||; their square roots, of order 1e-8, bound the agreement (see FrechetDistance)
    assertThat(ab).isCloseTo(ba, within(1e-6 * (1 + ab)));
  }

  @Property(tries = 60)
  void fidIsTranslationInvariant(
      @ForAll @IntRange(min = 2, max = 25) int n,
      @ForAll @IntRange(min = 1, max = 8) int d,
      @ForAll @DoubleRange(min = -50, max = 50) double shift,
      @ForAll long seed) {
    double[][] a = doubles(n, d, seed);
    double[][] b = doubles(n + 3, d, seed + 7);
    double before = FrechetDistance.between(a, b);
    double after = FrechetDistance.between(translate(a, shift), translate(b, shift));
    // shifting both sets moves no mean difference and no covariance; only rounding changes
    assertThat(after).isCloseTo(before, within(1e-7 * (1 + before + shift * shift)));
  }

  @Property(tries = 100)
  void mauveIsInUnitIntervalAndSymmetric(
      @ForAll @IntRange(min = 2, max = 15) int k,
      @ForAll @IntRange(min = 1, max = 60) int np,
      @ForAll @IntRange(min = 1, max = 60) int nq,
      @ForAll long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    int[] p = new int[np];
    int[] q = new int[nq];
    for (int i = 0; i < np; i++) {
      p[i] = r.nextInt(k);
    }
    for (int i = 0; i < nq; i++) {
      q[i] = r.nextInt(Math.max(1, k / 2)); // q uses part of the bins
    }
    MauveOptions o = MauveOptions.defaults();
    double pq = Mauve.fromAssignments(p, q, k, o).mauve();
    double qp = Mauve.fromAssignments(q, p, k, o).mauve();
    assertThat(pq).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
    assertThat(pq).isCloseTo(qp, within(1e-12));
  }

  @Property(tries = 25)
  void downstreamAccuracyIsInUnitIntervalAndCountsAddUp(
      @ForAll @IntRange(min = 2, max = 40) int nTrain,
      @ForAll @IntRange(min = 1, max = 40) int nTest,
      @ForAll @IntRange(min = 1, max = 6) int d,
      @ForAll @IntRange(min = 1, max = 4) int classes,
      @ForAll long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    EmbeddingMatrix train = TestData.gaussian(nTrain, d, 0, seed);
    EmbeddingMatrix test = TestData.gaussian(nTest, d, 0, seed + 1);
    List<Label> ytr = new ArrayList<>();
    for (int i = 0; i < nTrain; i++) {
      ytr.add(Label.of("c" + r.nextInt(classes)));
    }
    List<Label> yte = new ArrayList<>();
    for (int i = 0; i < nTest; i++) {
      yte.add(Label.of("c" + r.nextInt(classes + 1))); // may include a label unseen in training
    }
    DownstreamAccuracy acc = DownstreamClassifier.evaluate(train, ytr, test, yte);
    assertThat(acc.accuracy()).isBetween(0.0, 1.0);
    assertThat(acc.total()).isEqualTo(nTest);
    assertThat(acc.perClass().stream().mapToInt(ClassCounts::testCount).sum()).isEqualTo(nTest);
    assertThat(acc.perClass().stream().mapToInt(ClassCounts::predicted).sum()).isEqualTo(nTest);
    assertThat(acc.perClass().stream().mapToInt(ClassCounts::correct).sum())
        .isEqualTo(acc.correct());
  }

  private static double[][] doubles(int n, int d, long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    double[][] x = new double[n][d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = TestData.normal(r) * (1 + j);
      }
    }
    return x;
  }

  private static double[][] translate(double[][] x, double t) {
    double[][] out = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      out[i] = x[i].clone();
      for (int j = 0; j < out[i].length; j++) {
        out[i][j] += t * (j % 2 == 0 ? 1 : -0.5);
      }
    }
    return out;
  }
}
