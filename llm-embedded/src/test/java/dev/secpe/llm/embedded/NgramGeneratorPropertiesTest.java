package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

class NgramGeneratorPropertiesTest {
  private static NgramTextGenerator generator;
  private static final List<String> PARENTS = TestCorpus.texts(10, 4);

  @BeforeContainer
  static void train() {
    generator = NgramTextGenerator.builder().train(TestCorpus.texts(100, 1), TestCorpus.labels(100, 1))
        .threads(2).build();
  }

  @AfterContainer
  static void close() {
    generator.close();
  }

  private static GenerationTask task(int kind, int i) {
    String p = PARENTS.get(i % PARENTS.size());
    return switch (kind % 4) {
      case 0 -> new GenerationTask.Random(i % 2 == 0 ? "food" : null, List.of(), i % 30);
      case 1 -> new GenerationTask.FillIn(p, 0.55, 0, "tech");
      case 2 -> new GenerationTask.Rewrite(p, null);
      default -> new GenerationTask.Cross(p, PARENTS.get((i + 3) % PARENTS.size()), "food");
    };
  }

  @Property(tries = 40)
  void oneResultPerRequestWithinMaxTokensAndReproducible(
      @ForAll @IntRange(min = 0, max = 25) int n,
      @ForAll @IntRange(min = 1, max = 60) int maxTokens,
      @ForAll @DoubleRange(min = 0.0, max = 2.0) double temperature,
      @ForAll @DoubleRange(min = 0.05, max = 1.0) double topP,
      @ForAll long seed) {
    List<GenerationRequest> reqs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      GenerationParams p = new GenerationParams(temperature, topP, maxTokens, List.of(),
          OptionalLong.of(seed + i));
      reqs.add(new GenerationRequest(List.of(ChatMessage.user("x")), task(i + (int) (seed & 3), i), p));
    }
    List<GenerationResult> a = generator.generate(reqs);
    assertThat(a).hasSize(n);
    for (GenerationResult r : a) {
      assertThat(r.completionTokens()).isBetween(0, maxTokens);
      assertThat(WordTokenizer.tokenize(r.text()).size()).isLessThanOrEqualTo(maxTokens);
    }
    assertThat(generator.generate(reqs)).isEqualTo(a);
  }

  @Property(tries = 30)
  void fillInWithMaskProbabilityZeroReturnsTheParent(
      @ForAll @IntRange(min = 0, max = 9) int which, @ForAll long seed) {
    String parent = PARENTS.get(which);
    GenerationResult r = generator.generate(List.of(new GenerationRequest(
        List.of(ChatMessage.user("x")), new GenerationTask.FillIn(parent, 0.0, 0, null),
        GenerationParams.defaults().withSeed(seed)))).get(0);
    assertThat(r.text()).isEqualTo(WordTokenizer.detokenize(WordTokenizer.tokenize(parent)));
  }

  @Property(tries = 20)
  void fillInWithMaskProbabilityOneReplacesEveryToken(@ForAll long seed) {
    String parent = "zq1 zq2 zq3 zq4 zq5 zq6 zq7 zq8 zq9 zq10 zq11 zq12";
    GenerationResult r = generator.generate(List.of(new GenerationRequest(
        List.of(ChatMessage.user("x")), new GenerationTask.FillIn(parent, 1.0, 0, null),
        GenerationParams.defaults().withSeed(seed)))).get(0);
    assertThat(r.text()).doesNotContain("zq");
    assertThat(WordTokenizer.tokenize(r.text())).hasSize(12);
  }

  /** The test's binomial acceptance region against scipy 1.17 binom.ppf/isf at 5e-7, n = 400. */
  @Example
  void binomialRegionMatchesScipy() {
    assertThat(NgramTextGeneratorTest.binomialRegion(400, 0.5, 1e-6)).containsExactly(151, 249);
    assertThat(NgramTextGeneratorTest.binomialRegion(400, 0.4, 1e-6)).containsExactly(113, 208);
    assertThat(NgramTextGeneratorTest.binomialRegion(400, 0.9, 1e-6)).containsExactly(328, 386);
    assertThat(NgramTextGeneratorTest.binomialRegion(400, 0.1, 1e-6)).containsExactly(14, 72);
  }
}
