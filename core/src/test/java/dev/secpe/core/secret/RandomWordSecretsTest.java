package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.io.BundledCorpus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class RandomWordSecretsTest {

  /** "w" + two letters: letters only, distinct, sorting like their index. */
  private static String word(int i) {
    return "w" + (char) ('a' + i / 26) + (char) ('a' + i % 26);
  }

  /**
   * Word i (i = 0..49) occurs 100 - 2i times, so rank i is word i. With q = 0.2: centre
   * round(0.2 * 49) = round(9.8) = 10, five words from rank 10 - 2 = 8: words 8..12.
   */
  @Test
  void choosesTheWindowAroundTheQuantileOfPublicFrequencies() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      texts.add((word(i) + " ").repeat(100 - 2 * i));
    }
    RandomWordSecrets s = RandomWordSecrets.builder().publicTexts(texts).quantile(0.2).count(5).build();
    assertThat(s.words()).containsExactly(word(8), word(9), word(10), word(11), word(12));
    // At the ends the window is shifted inside the vocabulary.
    assertThat(RandomWordSecrets.builder().publicTexts(texts).quantile(0).count(3).build().words())
        .containsExactly(word(0), word(1), word(2));
    assertThat(RandomWordSecrets.builder().publicTexts(texts).quantile(1).count(3).build().words())
        .containsExactly(word(47), word(48), word(49));
  }

  @Test
  void onlyPublicFrequenciesMatterAndDetectionFindsDesignatedWordsAsWholeWords() {
    List<String> pub = List.of("apple apple apple banana banana cherry", "date");
    RandomWordSecrets s = RandomWordSecrets.builder().publicTexts(pub).quantile(0.5).count(1).build();
    // Ranks: apple 3, banana 2, cherry 1, date 1 (ties alphabetical); V = 4, centre round(1.5) = 2.
    assertThat(s.words()).containsExactly("cherry");
    List<SecretMatch> m = s.detect("Cherry pie; cherryade is not one; CHERRY again, banana no");
    assertThat(m).extracting(SecretMatch::value).containsExactly("cherry", "cherry");
    assertThat(m).extracting(SecretMatch::start).containsExactly(0, 34);
    assertThat(s.toString()).doesNotContain("cherry");
  }

  /**
   * Against core/src/test/python/random_words_reference.py, which tokenises and counts the public
   * split of the bundled sample independently (Python re) and writes the expected windows.
   */
  @Test
  void matchesThePythonReferenceOnTheBundledPublicPart() throws IOException {
    List<String> publicTexts = BundledCorpus.spamAssassin().publicPart().texts();
    int checked = 0;
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                Objects.requireNonNull(getClass().getResourceAsStream("random-words-reference.txt")),
                StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("#")[0].trim().split(" ");
        double q = Double.parseDouble(f[0]);
        int count = Integer.parseInt(f[1]);
        List<String> expected = Arrays.asList(f[2].split(","));
        RandomWordSecrets s =
            RandomWordSecrets.builder().publicTexts(publicTexts).quantile(q).count(count).build();
        assertThat(s.words()).as("q=%s count=%s", q, count).containsExactlyElementsOf(expected);
        checked++;
      }
    }
    assertThat(checked).isEqualTo(4);
  }

  @Test
  void validation() {
    assertThatThrownBy(() -> RandomWordSecrets.builder().quantile(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("quantile must be in [0, 1], got quantile=NaN");
    assertThatThrownBy(() -> RandomWordSecrets.builder().count(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RandomWordSecrets.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("publicTexts");
    assertThatThrownBy(() -> RandomWordSecrets.builder().publicTexts(List.of("one two")).count(3).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("public vocabulary has 2 words");
  }
}
