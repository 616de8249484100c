package dev.secpe.llm;

import java.util.List;
import java.util.Objects;

/**
 * A capability of a {@link TextGenerator} that can be fine-tuned under differential privacy on
 * (keywords, document) pairs, as CTCL's DP fine-tuning step does (§3.3), with DP-SGD-style
 * parameters: per-document contributions clipped to L2 norm {@link DpSgdSettings#clipNorm()},
 * Poisson sampling at rate {@code q = expectedBatch / N}, Gaussian noise of standard deviation
 * {@code noiseMultiplier * clipNorm} per step, {@link DpSgdSettings#steps()} steps.
 *
 * <p>Privacy contract for implementations: the returned generator must be a function of the
 * examples only through the clipped, subsampled, noised sums described above (everything else is
 * post-processing), so that the whole fine-tuning is covered by the Poisson-subsampled Gaussian
 * mechanism with multiplier {@code z}, rate {@code q} and {@code steps} compositions. The CALLER
 * charges that cost to its privacy ledger before calling {@link #fineTune}, and supplies the
 * randomness through {@link DpNoise} (backed by a secure source). Implementations must be local:
 * they receive private text and must not log it, send it anywhere, or quote it in exceptions.
 */
public interface FineTunableGenerator extends TextGenerator {

  /**
   * One training pair.
   *
   * @param keywords the condition (CTCL: the ten keywords of the document's topic; may be empty)
   * @param document the private document
   */
  record Example(List<String> keywords, String document) {
    /** Copies the keywords; rejects nulls. */
    public Example {
      keywords = List.copyOf(Objects.requireNonNull(keywords, "keywords"));
      Objects.requireNonNull(document, "document");
    }

    /** Never shows the document (it is private). */
    @Override
    public String toString() {
      return "Example[keywords=" + keywords + ", document=redacted " + document.length() + " chars]";
    }
  }

  /**
   * DP-SGD-style parameters.
   *
   * @param clipNorm C, the L2 bound on one document's contribution per step (> 0)
   * @param noiseMultiplier z, noise standard deviation in units of C (>= 0; 0 means no noise:
   *     NOT private, for non-private baselines only)
   * @param steps K, the number of steps (>= 1)
   * @param expectedBatch B, the expected batch; the sampling rate is {@code q = B / N} (B &lt;= N)
   * @param privateWeight lambda, the weight of the private statistics against the public model's
   *     in the fine-tuned model (> 0; implementation-specific meaning, documented there)
   */
  record DpSgdSettings(
      double clipNorm, double noiseMultiplier, int steps, int expectedBatch, double privateWeight) {
    /** Validates eagerly. */
    public DpSgdSettings {
      if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
        throw new IllegalArgumentException("clipNorm must be finite and > 0, got clipNorm=" + clipNorm);
      }
      if (!(noiseMultiplier >= 0) || Double.isInfinite(noiseMultiplier)) {
        throw new IllegalArgumentException(
            "noiseMultiplier must be finite and >= 0, got noiseMultiplier=" + noiseMultiplier);
      }
      if (steps < 1) {
        throw new IllegalArgumentException("steps must be >= 1, got steps=" + steps);
      }
      if (expectedBatch < 1) {
        throw new IllegalArgumentException("expectedBatch must be >= 1, got expectedBatch=" + expectedBatch);
      }
      if (!(privateWeight > 0) || Double.isInfinite(privateWeight)) {
        throw new IllegalArgumentException(
            "privateWeight must be finite and > 0, got privateWeight=" + privateWeight);
      }
    }

    /** q = B / N for a dataset of {@code n} examples. */
    public double samplingRate(int n) {
      if (expectedBatch > n) {
        throw new IllegalArgumentException(
            "expectedBatch must not exceed the number of examples, got expectedBatch=" + expectedBatch + " N=" + n);
      }
      return (double) expectedBatch / n;
    }
  }

  /**
   * The randomness of a DP fine-tuning run, supplied by the caller (JDK-only so this SPI needs no
   * accounting dependency; the library passes one backed by its secure noise source).
   */
  interface DpNoise {
    /** A sample of N(0, sigma^2), sigma > 0. */
    double gaussian(double sigma);

    /** A Bernoulli(p) draw (Poisson sampling), p in [0, 1]. */
    boolean bernoulli(double p);
  }

  /**
   * Fine-tunes a copy of this generator; this generator is unchanged.
   *
   * @param examples the private (keywords, document) pairs (N >= 1)
   * @param settings the DP-SGD parameters
   * @param noise the caller's noise (draws happen only after the caller charged the cost)
   * @return the fine-tuned generator (the caller closes it)
   */
  TextGenerator fineTune(List<Example> examples, DpSgdSettings settings, DpNoise noise);

  /**
   * Whether this generator splits its fine-tuning into a release and its post-processing
   * ({@link #fineTuningRelease} and {@link #fromFineTuningRelease}). A run that checkpoints stores
   * the release, so that a resumed run rebuilds the fine-tuned generator from it instead of
   * fine-tuning again with fresh noise (which would spend the budget twice). False by default:
   * such a generator can be fine-tuned, but a CTCL run with it cannot be checkpointed.
   */
  default boolean releasesFineTuning() {
    return false;
  }

  /**
   * The fine-tuning's DP release: the noisy statistic (for example the noisy sum of clipped
   * contributions, or the noisy parameters) from which {@link #fromFineTuningRelease} rebuilds the
   * fine-tuned generator. Same privacy contract and noise as {@link #fineTune}; its values are
   * safe to store wherever a release may be stored.
   *
   * @throws UnsupportedOperationException unless {@link #releasesFineTuning()}
   */
  default double[] fineTuningRelease(List<Example> examples, DpSgdSettings settings, DpNoise noise) {
    throw new UnsupportedOperationException(
        "generator '" + name() + "' does not expose its fine-tuning release (releasesFineTuning() is false)");
  }

  /**
   * The fine-tuned generator rebuilt from a release of {@link #fineTuningRelease} made with the
   * same settings on {@code examples} examples: post-processing only (it reads no private text
   * and draws no noise). {@code fineTune(e, s, n)} and {@code fromFineTuningRelease(
   * fineTuningRelease(e, s, n), s, e.size())} give the same generator.
   *
   * @throws IllegalArgumentException if the release does not fit this generator (wrong length,
   *     values that are not finite)
   * @throws UnsupportedOperationException unless {@link #releasesFineTuning()}
   */
  default TextGenerator fromFineTuningRelease(double[] release, DpSgdSettings settings, int examples) {
    throw new UnsupportedOperationException(
        "generator '" + name() + "' does not expose its fine-tuning release (releasesFineTuning() is false)");
  }
}
