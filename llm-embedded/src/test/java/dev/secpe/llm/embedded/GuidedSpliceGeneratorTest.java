package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.FineTunableGenerator.DpNoise;
import dev.secpe.llm.FineTunableGenerator.DpSgdSettings;
import dev.secpe.llm.FineTunableGenerator.Example;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GuidedSpliceGeneratorTest {

  private static final String[] SEA = {
    "The ocean waves rolled against the harbour wall.", "Sailors mended their nets on the quay.",
    "A gull circled above the fishing boats.", "Salt spray drifted over the pier at dawn.",
    "The tide carried the driftwood out to sea.", "Anchors rattled as the trawlers left port."
  };
  private static final String[] HILL = {
    "Snow covered the summit of the mountain.", "Climbers roped up below the granite ridge.",
    "A glacier carved the valley over centuries.", "Pine forests thinned near the alpine pass.",
    "Goats grazed on the steep rocky slopes.", "The cabin stood beside a frozen lake."
  };

  /** 40 public documents of three sentences, half about the sea and half about mountains. */
  private static List<String> publicTexts() {
    List<String> out = new ArrayList<>();
    SplittableRandom rng = new SplittableRandom(7);
    for (int d = 0; d < 40; d++) {
      String[] pool = d % 2 == 0 ? SEA : HILL;
      StringBuilder sb = new StringBuilder();
      for (int s = 0; s < 3; s++) {
        sb.append(pool[rng.nextInt(pool.length)]).append(s < 2 ? " " : "");
      }
      out.add(sb.toString());
    }
    return out;
  }

  private static List<Example> seaExamples() {
    List<Example> out = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      out.add(new Example(List.of(), SEA[i % SEA.length] + " " + SEA[(i + 1) % SEA.length]));
    }
    return out;
  }

  /** Deterministic noise for tests only (the library passes its secure source). */
  private static DpNoise noise(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    return new DpNoise() {
      @Override
      public double gaussian(double sigma) {
        double u = rng.nextDouble();
        double v = rng.nextDouble();
        return sigma * Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
      }

      @Override
      public boolean bernoulli(double p) {
        return rng.nextDouble() < p;
      }
    };
  }

  private static List<GenerationRequest> randomRequests(int n) {
    List<GenerationRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new GenerationRequest(List.of(ChatMessage.user("x")), new GenerationTask.Random(null, List.of(), 12),
          GenerationParams.defaults().withSeed(1000 + i)));
    }
    return out;
  }

  private static boolean aboutTheSea(String text) {
    int sea = 0;
    int hill = 0;
    for (String s : SEA) {
      sea += text.contains(s) ? 1 : 0;
    }
    for (String s : HILL) {
      hill += text.contains(s) ? 1 : 0;
    }
    return sea > hill;
  }

  private static double seaShare(TextGenerator g, int n) {
    return g.generate(randomRequests(n)).stream().map(GenerationResult::text).filter(
        GuidedSpliceGeneratorTest::aboutTheSea).count() / (double) n;
  }

  @Test
  void beforeFineTuningItWritesWhatTheSpliceGeneratorWrites() {
    List<String> texts = publicTexts();
    try (GuidedSpliceGenerator g = GuidedSpliceGenerator.builder().train(texts).build();
        SpliceTextGenerator s = SpliceTextGenerator.builder().train(texts).build()) {
      assertThat(g.fineTuned()).isFalse();
      assertThat(g.generate(randomRequests(20))).isEqualTo(s.generate(randomRequests(20)));
    }
  }

  @Test
  void fineTunedOnSeaTextsItWritesAboutTheSea() {
    List<String> texts = publicTexts();
    try (GuidedSpliceGenerator g = GuidedSpliceGenerator.builder().train(texts).build();
        GuidedSpliceGenerator tuned = g.fineTune(seaExamples(), new DpSgdSettings(1.0, 0.0, 1, 30, 5.0), noise(1))) {
      // Half the public documents are about the sea, and so are a little under half of the splice
      // generator's texts (a text that jumps from a sea document to a mountain one is neither).
      // The tuned model prefers the sea drafts among 8: without the reranking (or with it
      // inverted) the share would stay near one half (or fall).
      double before = seaShare(g, 200);
      double after = seaShare(tuned, 200);
      assertThat(before).isBetween(0.3, 0.6);
      assertThat(after).isGreaterThan(0.75);
      assertThat(tuned.fineTuned()).isTrue();
    }
  }

  @Test
  void theLogRatioIsZeroForAnUnchangedModelAndSignedByTheTuning() {
    List<String> texts = publicTexts();
    try (NgramTextGenerator base = NgramTextGenerator.builder().train(texts).build()) {
      double[] zeros = base.fineTuningRelease(seaExamples(), new DpSgdSettings(1.0, 0.0, 1, 30, 5.0), noise(1));
      java.util.Arrays.fill(zeros, 0);
      try (NgramTextGenerator same = base.fromFineTuningRelease(zeros, new DpSgdSettings(1.0, 0.0, 1, 30, 5.0), 30);
          NgramTextGenerator sea = base.fineTune(seaExamples(), new DpSgdSettings(1.0, 0.0, 1, 30, 5.0), noise(1))) {
        assertThat(same.meanLogRatio(base, SEA[0] + " " + HILL[0])).isEqualTo(0.0);
        assertThat(sea.meanLogRatio(base, SEA[2])).isPositive();
        assertThat(sea.meanLogRatio(base, HILL[2])).isNegative();
        assertThat(sea.meanLogRatio(base, "")).isEqualTo(0.0);
        assertThatThrownBy(() -> sea.meanLogRatio(NgramTextGenerator.builder().train(texts).build(), SEA[0]))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("same vocabulary");
      }
    }
  }

  @Test
  void aResumedRunRebuildsTheSameGeneratorFromTheRelease() {
    List<String> texts = publicTexts();
    DpSgdSettings dp = new DpSgdSettings(1.0, 1.5, 4, 10, 2.0);
    try (GuidedSpliceGenerator g = GuidedSpliceGenerator.builder().train(texts).build()) {
      assertThat(g.releasesFineTuning()).isTrue();
      double[] release = g.fineTuningRelease(seaExamples(), dp, noise(3));
      try (GuidedSpliceGenerator direct = g.fineTune(seaExamples(), dp, noise(3));
          GuidedSpliceGenerator rebuilt = g.fromFineTuningRelease(release, dp, 30)) {
        assertThat(rebuilt.generate(randomRequests(30))).isEqualTo(direct.generate(randomRequests(30)));
      }
    }
  }

  @Test
  void badSettingsNameTheFieldAndValue() {
    assertThatThrownBy(() -> GuidedSpliceGenerator.builder().candidates(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("candidates must be in [1, 64], got candidates=0");
    assertThatThrownBy(() -> GuidedSpliceGenerator.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("train(texts)");
  }
}
