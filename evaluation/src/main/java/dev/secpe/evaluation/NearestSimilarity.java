package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.util.Arrays;

/**
 * How close a synthetic set is to the real records, text by text: the mean cosine similarity of
 * each synthetic text to its nearest real record ({@code fidelity}) and of each real record to its
 * nearest synthetic text ({@code coverage}); both in [-1, 1], higher is closer.
 *
 * <p>This is what private evolution optimises: every private record votes for its nearest
 * candidate, and the winners are varied again. FID measures something else, the distance between
 * two Gaussian fits; where the generator cannot write texts close to the private ones, a set whose
 * texts each move closer to private records can still grow more spread out than the private set,
 * and its FID rise (docs/method-findings.md shows this on the bundled
 * e-mails). The two figures are the mean nearest-neighbour similarities behind the
 * precision/recall family of generative metrics (Kynkäänniemi et al. 2019; Naeem et al. 2020,
 * "Reliable fidelity and diversity metrics"), without their radius thresholds.
 *
 * @param fidelity mean over synthetic rows of the largest cosine similarity to a real row
 * @param coverage mean over real rows of the largest cosine similarity to a synthetic row
 */
public record NearestSimilarity(double fidelity, double coverage) {

  /** Validates the range. */
  public NearestSimilarity {
    if (!(fidelity >= -1 - 1e-9 && fidelity <= 1 + 1e-9)) {
      throw new IllegalArgumentException("fidelity must be in [-1, 1], got fidelity=" + fidelity);
    }
    if (!(coverage >= -1 - 1e-9 && coverage <= 1 + 1e-9)) {
      throw new IllegalArgumentException("coverage must be in [-1, 1], got coverage=" + coverage);
    }
  }

  /**
   * Both figures for {@code synthetic} against {@code real}; rows need not be unit length (they are
   * compared by cosine). O(n m d) time, O(n + m) extra memory.
   *
   * @throws IllegalArgumentException if either set is empty, the dimensions differ, or a row has
   *     norm 0 (its cosine is undefined)
   */
  public static NearestSimilarity of(EmbeddingMatrix real, EmbeddingMatrix synthetic) {
    Checks.rowsAtLeast(real, "real", 1);
    Checks.rowsAtLeast(synthetic, "synthetic", 1);
    Checks.sameDimension(real, "real", synthetic, "synthetic");
    double[] realNorm = norms(real, "real");
    double[] synthNorm = norms(synthetic, "synthetic");
    double[] bestForSynth = new double[synthetic.rows()];
    Arrays.fill(bestForSynth, Double.NEGATIVE_INFINITY);
    double coverage = 0;
    for (int i = 0; i < real.rows(); i++) {
      double best = Double.NEGATIVE_INFINITY;
      for (int s = 0; s < synthetic.rows(); s++) {
        double cos = real.dot(i, synthetic, s) / (realNorm[i] * synthNorm[s]);
        best = Math.max(best, cos);
        bestForSynth[s] = Math.max(bestForSynth[s], cos);
      }
      coverage += best;
    }
    double fidelity = 0;
    for (double b : bestForSynth) {
      fidelity += b;
    }
    return new NearestSimilarity(fidelity / synthetic.rows(), coverage / real.rows());
  }

  private static double[] norms(EmbeddingMatrix m, String name) {
    double[] out = new double[m.rows()];
    for (int i = 0; i < out.length; i++) {
      out[i] = m.rowNorm(i);
      if (!(out[i] > 0)) {
        throw new IllegalArgumentException(name + " row " + i + " has norm 0: its cosine similarity is undefined");
      }
    }
    return out;
  }
}
