package dev.secpe.evolution.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.EmbeddingMatrix;
import org.junit.jupiter.api.Test;

/** The vote geometries: plain cosine against cosine after centring on the candidates' mean. */
class KernelTest {

  // A generic "hub" candidate along the shared direction e1 and two specific ones.
  private static final EmbeddingMatrix CANDIDATES =
      EmbeddingMatrix.of(new float[][] {{1f, 0f, 0f}, {0.8f, 0.6f, 0f}, {0.8f, -0.6f, 0f}});

  /** x = (0.95, 0.31, 0) / |.|: cosine 0.9507 to the hub and 0.9465 to (0.8, 0.6, 0), by hand. */
  private static final EmbeddingMatrix PRIVATE = EmbeddingMatrix.of(new float[][] {{0.95f, 0.31f, 0f}}).normalizeRows();

  @Test
  void plainCosineGivesTheVoteToTheHub() {
    int[] nearest = Kernel.top1(PRIVATE, new int[] {0}, CANDIDATES, new int[] {0, 1, 2}, null);
    assertThat(nearest).containsExactly(0);
  }

  @Test
  void centringOnTheCandidatesMeanGivesItToTheSpecificCandidate() {
    int[] all = {0, 1, 2};
    float[] centre = Kernel.voteCentre(CANDIDATES, all);
    // mean of the three candidates, by hand: (2.6/3, 0, 0)
    assertThat((double) centre[0]).isCloseTo(2.6 / 3, within(1e-6));
    assertThat((double) centre[1]).isCloseTo(0.0, within(1e-7));
    // centred: x - m = (0.0839, 0.3103, 0)/.. against (0.1333, 0, 0) and (-0.0667, 0.6, 0):
    // cosines 0.261 and 0.893, so the specific candidate wins.
    assertThat(Kernel.top1(PRIVATE, new int[] {0}, CANDIDATES, all, centre)).containsExactly(1);
    assertThat(Kernel.topK(PRIVATE, new int[] {0}, CANDIDATES, all, 2, centre)[0]).containsExactly(1, 0);
  }

  @Test
  void indicesAreThoseOfTheFullCandidateListAndEachRowVotesOnce() {
    EmbeddingMatrix priv =
        EmbeddingMatrix.of(new float[][] {{0f, 1f, 0f}, {0.95f, 0.31f, 0f}, {0f, -1f, 0f}}).normalizeRows();
    int[] cand = {2, 1}; // a subset, out of order
    float[] centre = Kernel.voteCentre(CANDIDATES, cand);
    int[] nearest = Kernel.top1(priv, new int[] {0, 1, 2}, CANDIDATES, cand, centre);
    assertThat(nearest).containsExactly(1, 1, 2);
  }

  @Test
  void noCandidatesNoCentre() {
    assertThat(Kernel.voteCentre(CANDIDATES, new int[0])).isNull();
  }

  @Test
  void aGroupWhoseCandidateIsAtTheMeanVotesByPlainCosine() {
    // One candidate is its own mean; two identical candidates too.
    assertThat(Kernel.voteCentre(CANDIDATES, new int[] {2})).isNull();
    EmbeddingMatrix twins = EmbeddingMatrix.of(new float[][] {{0.6f, 0.8f, 0f}, {0.6f, 0.8f, 0f}});
    assertThat(Kernel.voteCentre(twins, new int[] {0, 1})).isNull();
    int[] nearest = Kernel.top1(PRIVATE, new int[] {0}, CANDIDATES, new int[] {2},
        Kernel.voteCentre(CANDIDATES, new int[] {2}));
    assertThat(nearest).containsExactly(2);
  }

  @Test
  void aPrivateRowAtTheCentreKeepsItsOwnDirection() {
    EmbeddingMatrix c = Kernel.centred(CANDIDATES, new int[] {1, 0}, new float[] {1f, 0f, 0f});
    assertThat(c.row(1)).containsExactly(1f, 0f, 0f);
    // (0.8, 0.6, 0) - (1, 0, 0) = (-0.2, 0.6, 0), unit: (-0.3162, 0.9487, 0)
    assertThat((double) c.row(0)[0]).isCloseTo(-0.2 / Math.sqrt(0.4), within(1e-6));
    assertThat(c.rowNorm(0)).isCloseTo(1.0, within(1e-6));
  }

  @Test
  void voteCountsMatchABruteForceOverTheSelectedRows() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(12);
    int d = 8;
    float[][] p = new float[60][d];
    float[][] c = new float[25][d];
    for (float[][] x : new float[][][] {p, c}) {
      for (float[] r : x) {
        for (int j = 0; j < d; j++) {
          r[j] = (float) rnd.nextGaussian();
        }
      }
    }
    EmbeddingMatrix priv = EmbeddingMatrix.of(p).normalizeRows();
    EmbeddingMatrix cands = EmbeddingMatrix.of(c).normalizeRows();
    int[] rows = {3, 59, 0, 17, 17, 40, 8, 22, 51, 30, 9, 44}; // a repeat, out of order
    int[] cand = {24, 3, 0, 11, 7, 19, 5};
    for (float[] centre : new float[][] {null, Kernel.voteCentre(cands, cand)}) {
      for (int k : new int[] {1, 3}) {
        long[] expected = new long[cands.rows()];
        for (int r : rows) {
          double[] a = unit(priv.row(r), centre);
          double[] score = new double[cand.length];
          Integer[] order = new Integer[cand.length];
          for (int q = 0; q < cand.length; q++) {
            double[] b = unit(cands.row(cand[q]), centre);
            for (int j = 0; j < d; j++) {
              score[q] += a[j] * b[j];
            }
            order[q] = q;
          }
          java.util.Arrays.sort(order, (x, y) -> Double.compare(score[y], score[x]));
          for (int t = 0; t < k; t++) {
            expected[cand[order[t]]]++;
          }
        }
        assertThat(Kernel.nearestCounts(priv, rows, cands, cand, k, centre))
            .as("k=%d centred=%s", k, centre != null).containsExactly(expected);
      }
    }
  }

  /** x - centre (x when null), scaled to unit length, in double. */
  private static double[] unit(float[] x, float[] centre) {
    double[] v = new double[x.length];
    double n = 0;
    for (int j = 0; j < x.length; j++) {
      v[j] = x[j] - (centre == null ? 0 : centre[j]);
      n += v[j] * v[j];
    }
    for (int j = 0; j < x.length; j++) {
      v[j] /= Math.sqrt(n);
    }
    return v;
  }
}
