package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.secret.RandomWordSecrets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@code bin/secpe demo --secret-density}: the fewest random words that the share of texts holds. */
class SecretDensityTest {

  /** Texts of 12 words drawn with Zipf-like frequencies from 400 plain words. */
  private static List<String> texts(int n) {
    SplittableRandom rng = new SplittableRandom(7);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder sb = new StringBuilder();
      for (int w = 0; w < 12; w++) {
        int rank = (int) Math.floor(Math.pow(400, rng.nextDouble())) - 1;
        sb.append(w == 0 ? "" : " ").append("w").append((char) ('a' + rank / 26)).append((char) ('a' + rank % 26));
      }
      out.add(sb.toString());
    }
    return out;
  }

  private static double share(RandomWordSecrets w, List<String> texts) {
    return texts.stream().filter(t -> !w.detect(t).isEmpty()).count() / (double) texts.size();
  }

  @Test
  void theChosenCountIsTheFewestThatReachTheDensity() {
    List<String> texts = texts(500);
    for (double density : new double[] {0.1, 0.3, 0.6}) {
      RandomWordSecrets chosen = DemoRunner.wordsForDensity(texts, density);
      int n = chosen.words().size();
      // Brute force, independent of the search: the first count whose share reaches the density.
      int first = 1;
      while (share(RandomWordSecrets.builder().publicTexts(texts).count(first).build(), texts) < density) {
        first++;
      }
      assertThat(n).as("density %s", density).isEqualTo(first);
      assertThat(share(chosen, texts)).isGreaterThanOrEqualTo(density);
    }
  }

  @Test
  void aDensityTheVocabularyCannotReachTakesEveryWord() {
    // Words of one letter are not in the vocabulary (minLength 2): at most a third can hold one.
    List<String> texts = List.of("alpha beta gamma", "x", "y");
    RandomWordSecrets chosen = DemoRunner.wordsForDensity(texts, 0.9);
    assertThat(chosen.words()).containsExactlyInAnyOrder("alpha", "beta", "gamma");
  }
}
