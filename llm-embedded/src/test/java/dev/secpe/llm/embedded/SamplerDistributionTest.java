package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.llm.GenerationParams;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The next-token sampler draws from the exact Kneser–Ney distribution at temperature 1 and top-p
 * 1, whether a token comes from the candidate set or from the rejection-sampled tail. Each of the
 * (at most 20) checked frequencies must lie within 5.5 binomial standard deviations of N p:
 * P(|Z| > 5.5) = 3.8e-8 per check, so the false-failure rate is below 1e-6 per case (normal
 * approximation; every checked N p is above 50).
 */
class SamplerDistributionTest {

  private static final int N = 40_000;

  @Test
  void candidateAndTailDrawsFollowTheModel() {
    for (int candidates : new int[] {24, 1}) { // 1: most mass goes through the tail path
      for (String label : new String[] {null, "food"}) {
        try (NgramTextGenerator g = NgramTextGenerator.builder().order(3)
            .train(TestCorpus.texts(200, 3), TestCorpus.labels(200, 3))
            .candidates(candidates).threads(1).build()) {
          check(g, label, candidates);
        }
      }
    }
  }

  private static void check(NgramTextGenerator g, String label, int candidates) {
    NgramTextGenerator.Trained t = g.trained();
    int the = t.vocabulary.id("the");
    int[] hist = {the};
    GenerationParams params = new GenerationParams(1.0, 1.0, 10, List.of(), OptionalLong.empty());
    Sampler s = new Sampler(t, label, params, 12345L + candidates);
    int[] counts = new int[t.vocabulary.size()];
    for (int i = 0; i < N; i++) {
      counts[s.next(hist, 1, 1.0)]++;
    }
    // Exact probabilities from the models, mixed as the sampler documents.
    KneserNeyModel.Context gc = t.global.context();
    gc.set(hist, 1, 1000);
    KneserNeyModel.Context lc = label == null ? null : t.labels.get(label).context();
    if (lc != null) {
      lc.set(hist, 1, 1000);
    }
    double lambda = label == null ? 0 : t.labelWeight;
    double[] p = new double[counts.length];
    double excluded = 0;
    for (int w = 0; w < p.length; w++) {
      p[w] = (1 - lambda) * gc.probability(w) + (lc == null ? 0 : lambda * lc.probability(w));
      if (w == Vocabulary.UNK || w == Vocabulary.BOS) {
        excluded += p[w];
        p[w] = 0;
      }
    }
    int checked = 0;
    for (int w = 0; w < p.length; w++) {
      double q = p[w] / (1 - excluded);
      if (N * q < 50) {
        continue;
      }
      double sd = Math.sqrt(N * q * (1 - q));
      assertThat((double) counts[w])
          .as("token %s, candidates=%d, label=%s", t.vocabulary.word(w), candidates, label)
          .isBetween(N * q - 5.5 * sd, N * q + 5.5 * sd);
      if (++checked == 20) {
        break;
      }
    }
    assertThat(checked).isGreaterThan(3);
  }
}
