package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.llm.GenerationParams;
import java.util.ArrayList;
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

  /**
   * Temperature T reshapes the candidate set: candidate i gets M_C p_i^(1/T) / sum_j p_j^(1/T),
   * where M_C is the candidates' total mass; top-p keeps only the most likely candidates until
   * their (tempered) mass reaches p of the total. Same 5.5-sigma acceptance as above.
   */
  @Test
  void temperatureAndTopPActAsDocumented() {
    try (NgramTextGenerator g = NgramTextGenerator.builder().order(2)
        .train(TestCorpus.texts(200, 3)).candidates(10_000).threads(1).build()) {
      NgramTextGenerator.Trained t = g.trained();
      int[] hist = {t.vocabulary.id("the")};
      KneserNeyModel.Context gc = t.global.context();
      gc.set(hist, 1, 100_000);
      // With candidates = everything listed after "the", the candidate set is those words + EOS.
      java.util.Set<Integer> cand = new java.util.TreeSet<>();
      gc.candidates(100_000, cand::add);
      cand.add(Vocabulary.EOS);
      double temperature = 0.5;
      double mass = 0;
      double tempered = 0;
      for (int w : cand) {
        double p = gc.probability(w);
        mass += p;
        tempered += Math.pow(p, 1 / temperature);
      }
      GenerationParams params =
          new GenerationParams(temperature, 1.0, 10, List.of(), OptionalLong.empty());
      Sampler s = new Sampler(t, null, params, 99);
      int[] counts = new int[t.vocabulary.size()];
      for (int i = 0; i < N; i++) {
        counts[s.next(hist, 1, 1.0)]++;
      }
      int checked = 0;
      for (int w : cand) {
        double q = mass * Math.pow(gc.probability(w), 1 / temperature) / tempered;
        if (N * q < 50) {
          continue;
        }
        double sd = Math.sqrt(N * q * (1 - q));
        assertThat((double) counts[w]).as("token %s at T=0.5", t.vocabulary.word(w))
            .isBetween(N * q - 5.5 * sd, N * q + 5.5 * sd);
        checked++;
      }
      assertThat(checked).isGreaterThan(3);

      // Top-p 0.5 at temperature 1: only the nucleus of the candidates can ever be drawn.
      List<Integer> byProbability = new ArrayList<>(cand);
      byProbability.sort((x, y) -> Double.compare(gc.probability(y), gc.probability(x)));
      java.util.Set<Integer> nucleus = new java.util.HashSet<>();
      double acc = 0;
      for (int w : byProbability) {
        if (acc >= 0.5) {
          break;
        }
        acc += gc.probability(w);
        nucleus.add(w);
      }
      Sampler top = new Sampler(t, null,
          new GenerationParams(1.0, 0.5, 10, List.of(), OptionalLong.empty()), 7);
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      for (int i = 0; i < 5_000; i++) {
        seen.add(top.next(hist, 1, 1.0));
      }
      assertThat(nucleus).containsAll(seen);
      assertThat(seen).hasSize(nucleus.size()); // every nucleus member has mass well above 1/5000
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
