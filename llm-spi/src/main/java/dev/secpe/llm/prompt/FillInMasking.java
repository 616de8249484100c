package dev.secpe.llm.prompt;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The fill-in-the-blanks variation of Aug-PE (Xie et al., 2024): every word of the parent is
 * replaced by {@code "_"} independently with probability {@code p} (Aug-PE uses 0.5 to 0.6, DPGA
 * 0.5), and the offspring's target length is the parent's length plus noise.
 *
 * <p>Randomness comes only from the {@link RandomGenerator} the caller passes (split it per
 * request for reproducible runs); there is no global RNG. This randomness is not privacy noise:
 * parents are synthetic.
 */
public final class FillInMasking {

  /** The blank that replaces a masked word. */
  public static final String BLANK = "_";

  /** Aug-PE's lower mask probability. */
  public static final double DEFAULT_MASK_PROBABILITY = 0.5;

  private FillInMasking() {}

  /**
   * Masks each whitespace-separated word with probability {@code p}; whitespace is normalised to
   * single spaces.
   *
   * @param text the synthetic parent
   * @param p the mask probability, in [0, 1]
   * @param rng the source of randomness
   */
  public static String mask(String text, double p, RandomGenerator rng) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(rng, "rng");
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("p must be in [0, 1], got p=" + p);
    }
    String[] words = text.trim().split("\\s+");
    if (words.length == 1 && words[0].isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < words.length; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      // nextDouble() is in [0, 1): p = 0 never masks, p = 1 always masks.
      sb.append(rng.nextDouble() < p ? BLANK : words[i]);
    }
    return sb.toString();
  }

  /** Number of whitespace-separated words. */
  public static int wordCount(String text) {
    String t = Objects.requireNonNull(text, "text").trim();
    return t.isEmpty() ? 0 : t.split("\\s+").length;
  }

  /**
   * The offspring's target length: {@code parentWords + round(N(0, sd))} with {@code sd =
   * max(1, relativeSd * parentWords)}, at least 1.
   *
   * @param parentWords the parent's length in words, >= 0
   * @param relativeSd the noise standard deviation as a fraction of the parent length, >= 0
   * @param rng the source of randomness
   */
  public static int targetWords(int parentWords, double relativeSd, RandomGenerator rng) {
    Objects.requireNonNull(rng, "rng");
    if (parentWords < 0) {
      throw new IllegalArgumentException("parentWords must be >= 0, got parentWords=" + parentWords);
    }
    if (!(relativeSd >= 0) || !Double.isFinite(relativeSd)) {
      throw new IllegalArgumentException("relativeSd must be >= 0, got relativeSd=" + relativeSd);
    }
    if (relativeSd == 0) {
      return Math.max(1, parentWords);
    }
    double sd = Math.max(1.0, relativeSd * parentWords);
    long t = parentWords + Math.round(rng.nextGaussian() * sd);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, t));
  }
}
