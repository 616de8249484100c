package dev.secpe.llm.prompt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FillInMaskingTest {

  @Property(tries = 50)
  void maskKeepsWordCountAndOnlyBlanksWords(
      @ForAll @IntRange(min = 0, max = 60) int words, @ForAll @DoubleRange(min = 0, max = 1) double p,
      @ForAll long seed) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append("w").append(i).append(i % 3 == 0 ? "  " : " ");
    }
    String masked = FillInMasking.mask(sb.toString(), p, new SplittableRandom(seed));
    assertThat(FillInMasking.wordCount(masked)).isEqualTo(words);
    String[] out = masked.isEmpty() ? new String[0] : masked.split(" ");
    for (int i = 0; i < out.length; i++) {
      assertThat(out[i]).isIn("_", "w" + i);
    }
  }

  @Test
  void extremesMaskNothingOrEverything() {
    String t = "one two three four";
    assertThat(FillInMasking.mask(t, 0, new SplittableRandom(1))).isEqualTo(t);
    assertThat(FillInMasking.mask(t, 1, new SplittableRandom(1))).isEqualTo("_ _ _ _");
  }

  /**
   * 20 000 words at p = 0.55: the number masked is Binomial(20 000, 0.55), sd = 70.4. Accepting
   * within 5 sd gives a false-failure rate below 6e-7 (normal approximation), while a mask rate off
   * by 0.03 (e.g. 0.52) is 8.5 sd away and fails.
   */
  @Test
  void maskRateMatchesTheProbability() {
    int n = 20_000;
    double p = 0.55;
    String text = "word ".repeat(n);
    String masked = FillInMasking.mask(text, p, new SplittableRandom(2024));
    long blanks = masked.chars().filter(c -> c == '_').count();
    double sd = Math.sqrt(n * p * (1 - p));
    assertThat(Math.abs(blanks - n * p)).isLessThan(5 * sd);
  }

  @Property(tries = 50)
  void targetWordsIsPositiveAndCentredOnTheParent(
      @ForAll @IntRange(min = 0, max = 500) int parent, @ForAll long seed) {
    assertThat(FillInMasking.targetWords(parent, 0, new SplittableRandom(seed))).isEqualTo(Math.max(1, parent));
    int t = FillInMasking.targetWords(parent, 0.1, new SplittableRandom(seed));
    double sd = Math.max(1, 0.1 * parent);
    assertThat(t).isGreaterThanOrEqualTo(1);
    // |N(0,1)| < 8.3 except with probability 1e-16
    assertThat((double) Math.abs(t - Math.max(parent, 1))).isLessThanOrEqualTo(8.3 * sd + 1);
  }

  @Test
  void badArgumentsNameTheField() {
    assertThatThrownBy(() -> FillInMasking.mask("a", Double.NaN, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p=NaN");
    assertThatThrownBy(() -> FillInMasking.targetWords(-1, 0.1, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parentWords=-1");
    assertThatThrownBy(() -> FillInMasking.targetWords(5, Double.NaN, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("relativeSd=NaN");
  }
}
