package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationResult.FinishReason;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NgramTextGeneratorTest {

  private static final List<ChatMessage> PROMPT = List.of(ChatMessage.user("(rendered prompt)"));
  private static NgramTextGenerator generator;

  @BeforeAll
  static void train() {
    generator =
        NgramTextGenerator.builder()
            .order(4)
            .train(TestCorpus.texts(300, 1), TestCorpus.labels(300, 1))
            .threads(2)
            .seed(42)
            .build();
  }

  @AfterAll
  static void close() {
    generator.close();
  }

  static GenerationRequest request(GenerationTask task, long seed) {
    return new GenerationRequest(PROMPT, task, GenerationParams.defaults().withSeed(seed));
  }

  static GenerationRequest request(GenerationTask task, GenerationParams params) {
    return new GenerationRequest(PROMPT, task, params);
  }

  static GenerationTask.Random random(String label, int target) {
    return new GenerationTask.Random(label, List.of(), target);
  }

  static List<GenerationRequest> mixed(int n, long seedBase) {
    List<String> parents = TestCorpus.texts(20, 77);
    List<GenerationRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String p = parents.get(i % parents.size());
      String q = parents.get((i + 1) % parents.size());
      GenerationTask task =
          switch (i % 4) {
            case 0 -> random(i % 8 == 0 ? "food" : null, 20);
            case 1 -> new GenerationTask.FillIn(p, 0.5, 0, null);
            case 2 -> new GenerationTask.Rewrite(p, "tech");
            default -> new GenerationTask.Cross(p, q, null);
          };
      out.add(request(task, seedBase + i));
    }
    return out;
  }

  static List<String> texts(List<GenerationResult> results) {
    return results.stream().map(GenerationResult::text).collect(Collectors.toList());
  }

  @Test
  void describesItself() {
    assertThat(generator.name()).isEqualTo("embedded-ngram");
    assertThat(generator.locality()).isEqualTo(Locality.LOCAL);
    assertThat(generator.order()).isEqualTo(4);
    assertThat(generator.labels()).containsExactly("food", "tech");
  }

  @Test
  void oneResultPerRequestInOrderAndEmptyBatch() {
    assertThat(generator.generate(List.of())).isEmpty();
    List<GenerationRequest> reqs = mixed(37, 1000);
    List<GenerationResult> results = generator.generate(reqs);
    assertThat(results).hasSize(37);
    // In order: result i equals request i generated alone.
    for (int i = 0; i < reqs.size(); i += 5) {
      assertThat(generator.generate(List.of(reqs.get(i))).get(0)).isEqualTo(results.get(i));
    }
    assertThat(results).allSatisfy(r -> assertThat(r.text()).isNotBlank());
  }

  @Test
  void deterministicUnderSeedAndDiverseAcrossSeeds() {
    List<GenerationRequest> reqs = mixed(40, 5);
    assertThat(texts(generator.generate(reqs))).isEqualTo(texts(generator.generate(reqs)));
    List<String> a = texts(generator.generate(mixed(40, 5000)));
    List<String> b = texts(generator.generate(mixed(40, 9000)));
    long differing = IntStream.range(0, a.size()).filter(i -> !a.get(i).equals(b.get(i))).count();
    assertThat(differing).isGreaterThan(30);
  }

  @Test
  void unseededRequestsAreReproducibleFromTheBaseSeedAndCallOrder() {
    GenerationParams unseeded = GenerationParams.defaults();
    List<GenerationRequest> reqs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      reqs.add(request(random(null, 15), unseeded));
    }
    List<List<String>> runs = new ArrayList<>();
    for (int rep = 0; rep < 2; rep++) {
      try (NgramTextGenerator g =
          NgramTextGenerator.builder().train(TestCorpus.texts(50, 1)).seed(3).threads(2).build()) {
        List<String> first = texts(g.generate(reqs));
        List<String> second = texts(g.generate(reqs));
        assertThat(second).isNotEqualTo(first); // a new call gets new seeds
        first.addAll(second);
        runs.add(first);
      }
    }
    assertThat(runs.get(1)).isEqualTo(runs.get(0));
    // Within one call, identical unseeded requests still differ (seed depends on the index).
    assertThat(runs.get(0).subList(0, 10).stream().distinct().count()).isGreaterThan(5);
  }

  @Test
  void concurrentCallersGetTheSameResultsAsSequentialGeneration() throws Exception {
    List<GenerationRequest> reqs = mixed(200, 77_000);
    List<GenerationResult> sequential = new ArrayList<>();
    for (int i = 0; i < reqs.size(); i++) {
      sequential.add(
          generator.generateOne(reqs.get(i), NgramTextGenerator.mix(reqs.get(i).params().seed().getAsLong())));
    }
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<GenerationResult>>> futures = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        futures.add(callers.submit(() -> generator.generate(reqs)));
      }
      for (Future<List<GenerationResult>> f : futures) {
        assertThat(f.get()).isEqualTo(sequential);
      }
    } finally {
      callers.shutdown();
    }
  }

  /**
   * Each parent token is masked independently with probability p. The parent is made of words the
   * model has never seen, so a masked token can never be re-sampled back: the number of parent
   * tokens that survive is exactly Binomial(m, 1 - p). Two-sided acceptance region at
   * false-failure rate 1e-6 per case (4 cases: 4e-6 in all), from the exact binomial CDF.
   */
  @Test
  void fillInMasksTheRequestedFractionOfTokens() {
    int m = 400;
    String parent =
        IntStream.range(0, m).mapToObj(i -> "qz" + Integer.toString(i, 36) + "x").collect(Collectors.joining(" "));
    GenerationParams params = new GenerationParams(1.0, 1.0, 2000, List.of(), OptionalLong.empty());
    int seed = 0;
    for (double p : new double[] {0.5, 0.6, 0.1, 0.9}) {
      GenerationResult r =
          generator.generate(
              List.of(request(new GenerationTask.FillIn(parent, p, 0, null), params.withSeed(++seed))))
              .get(0);
      List<String> tokens = WordTokenizer.tokenize(r.text());
      List<Integer> survivors = new ArrayList<>();
      for (String t : tokens) {
        if (t.startsWith("qz")) {
          survivors.add(Integer.parseInt(t.substring(2, t.length() - 1), 36));
        }
      }
      int[] region = binomialRegion(m, 1 - p, 1e-6);
      assertThat(survivors.size()).as("survivors at p=" + p).isBetween(region[0], region[1]);
      assertThat(survivors).isSorted(); // no reordering
      assertThat(tokens).hasSize(m); // target = parent length, spans keep their lengths
      assertThat(r.completionTokens()).isEqualTo(m);
    }
  }

  @Test
  void fillInMovesTheLengthToTheTarget() {
    String parent = TestCorpus.texts(1, 5).get(0) + " " + TestCorpus.texts(1, 6).get(0);
    int words = WordTokenizer.countWords(WordTokenizer.tokenize(parent));
    for (int target : new int[] {words + 12, Math.max(5, words - 8)}) {
      for (long s = 0; s < 5; s++) {
        GenerationResult r =
            generator.generate(List.of(request(new GenerationTask.FillIn(parent, 0.5, target, "food"), s))).get(0);
        int got = WordTokenizer.countWords(WordTokenizer.tokenize(r.text()));
        // Span lengths are moved in tokens; a filled token may be punctuation, and shortening stops
        // once masked spans are empty: allow 25% either way.
        assertThat(got).as("target %d", target).isBetween((int) (0.75 * target), (int) Math.ceil(1.25 * target));
      }
    }
  }

  @Test
  void rewriteKeepsLengthAndChangesAFewWords() {
    String parent = TestCorpus.texts(1, 11).get(0);
    List<String> pt = WordTokenizer.tokenize(parent);
    int changedTotal = 0;
    int wordsTotal = 0;
    for (long s = 0; s < 20; s++) {
      GenerationResult r = generator.generate(List.of(request(new GenerationTask.Rewrite(parent, "food"), s))).get(0);
      List<String> t = WordTokenizer.tokenize(r.text());
      assertThat(t).hasSameSizeAs(pt);
      for (int i = 0; i < t.size(); i++) {
        if (!WordTokenizer.isWord(pt.get(i))) {
          assertThat(t.get(i)).isEqualTo(pt.get(i)); // punctuation is never masked
        } else {
          assertThat(WordTokenizer.isWord(t.get(i))).as("a word is refilled with a word").isTrue();
          wordsTotal++;
          if (!t.get(i).equals(pt.get(i))) {
            changedTotal++;
          }
        }
      }
    }
    // At most the masked share (0.25 on average) can change; some refills equal the original.
    assertThat(changedTotal).isPositive();
    assertThat((double) changedTotal / wordsTotal).isLessThan(0.4);
  }

  @Test
  void labelConditioningProducesLabelTypicalVocabulary() {
    for (String label : List.of("food", "tech")) {
      List<GenerationRequest> reqs = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        reqs.add(request(random(label, 25), 300 + i));
      }
      int food = 0;
      int tech = 0;
      for (GenerationResult r : generator.generate(reqs)) {
        for (String t : WordTokenizer.tokenize(r.text())) {
          food += TestCorpus.FOOD_WORDS.contains(t) ? 1 : 0;
          tech += TestCorpus.TECH_WORDS.contains(t) ? 1 : 0;
        }
      }
      // Label weight 0.8: the other label's words come only through the global model's 0.2 share.
      if (label.equals("food")) {
        assertThat(food).isGreaterThan(4 * tech);
      } else {
        assertThat(tech).isGreaterThan(4 * food);
      }
    }
  }

  @Test
  void keywordsAreBoosted() {
    int with = 0;
    int without = 0;
    for (int i = 0; i < 60; i++) {
      String a = generator.generate(List.of(request(new GenerationTask.Random(null, List.of("router"), 20), 900 + i))).get(0).text();
      String b = generator.generate(List.of(request(random(null, 20), 900 + i))).get(0).text();
      with += a.contains("router") ? 1 : 0;
      without += b.contains("router") ? 1 : 0;
    }
    assertThat(with).isGreaterThan(without + 15);
  }

  @Test
  void keywordsMatchEveryCaseVariant() {
    int with = 0;
    int without = 0;
    for (int i = 0; i < 40; i++) {
      String upper = generator.generate(List.of(request(new GenerationTask.Random(null, List.of("PRINTER"), 20), 500 + i))).get(0).text();
      String lower = generator.generate(List.of(request(new GenerationTask.Random(null, List.of("printer"), 20), 500 + i))).get(0).text();
      String none = generator.generate(List.of(request(random(null, 20), 500 + i))).get(0).text();
      assertThat(upper).isEqualTo(lower);
      with += upper.contains("printer") ? 1 : 0;
      without += none.contains("printer") ? 1 : 0;
    }
    assertThat(with).isGreaterThan(without + 10);
  }

  @Test
  void crossSplicesMaterialFromBothParents() {
    String first = "aa1 aa2 aa3 aa4. aa5 aa6 aa7 aa8. aa9 aa10 aa11 aa12. aa13 aa14 aa15 aa16.";
    String second = "bb1 bb2 bb3 bb4 bb5. bb6 bb7 bb8 bb9 bb10. bb11 bb12 bb13 bb14 bb15.";
    int firstTokens = WordTokenizer.tokenize(first).size();
    int secondTokens = WordTokenizer.tokenize(second).size();
    for (long s = 0; s < 30; s++) {
      GenerationResult r = generator.generate(List.of(request(new GenerationTask.Cross(first, second, null), s))).get(0);
      List<String> t = WordTokenizer.tokenize(r.text());
      List<Integer> aPositions = new ArrayList<>();
      List<Integer> bPositions = new ArrayList<>();
      for (int i = 0; i < t.size(); i++) {
        if (t.get(i).startsWith("aa")) {
          aPositions.add(i);
        } else if (t.get(i).startsWith("bb")) {
          bPositions.add(i);
        }
      }
      assertThat(aPositions).isNotEmpty();
      assertThat(bPositions).isNotEmpty();
      // A splice: one parent's material entirely before the other's.
      boolean aFirst = aPositions.get(aPositions.size() - 1) < bPositions.get(0);
      boolean bFirst = bPositions.get(bPositions.size() - 1) < aPositions.get(0);
      assertThat(aFirst || bFirst).isTrue();
      // Length near the parents' mean (cuts fall on sentence ends: within one sentence of it).
      assertThat(t.size()).isBetween((firstTokens + secondTokens) / 2 - 6, (firstTokens + secondTokens) / 2 + 6);
    }
  }

  @Test
  void randomHonoursTargetWordsRoughly() {
    for (int target : new int[] {10, 30, 60}) {
      double sum = 0;
      int n = 30;
      for (int i = 0; i < n; i++) {
        GenerationResult r = generator.generate(List.of(request(random(null, target), 50 + i))).get(0);
        int words = WordTokenizer.countWords(WordTokenizer.tokenize(r.text()));
        assertThat(words).isBetween((int) (0.6 * target), target + Math.max(5, target / 2));
        sum += words;
      }
      assertThat(sum / n).isBetween(0.85 * target, 1.25 * target);
    }
  }

  @Test
  void maxTokensAndStopSequencesAreHonoured() {
    GenerationParams five = new GenerationParams(1.0, 1.0, 5, List.of(), OptionalLong.of(1));
    GenerationResult r = generator.generate(List.of(request(random(null, 40), five))).get(0);
    assertThat(r.completionTokens()).isEqualTo(5);
    assertThat(r.finishReason()).isEqualTo(FinishReason.LENGTH);
    String parent = TestCorpus.texts(1, 3).get(0);
    GenerationResult f = generator.generate(List.of(request(new GenerationTask.FillIn(parent, 0.5, 0, null), five))).get(0);
    assertThat(f.completionTokens()).isEqualTo(5);
    assertThat(f.finishReason()).isEqualTo(FinishReason.LENGTH);

    GenerationParams stop = new GenerationParams(1.0, 1.0, 200, List.of("."), OptionalLong.of(2));
    GenerationResult s = generator.generate(List.of(request(random(null, 40), stop))).get(0);
    assertThat(s.text()).doesNotContain(".");
    assertThat(s.finishReason()).isEqualTo(FinishReason.STOP);
  }

  @Test
  void zeroTemperatureAndTinyTopPAreGreedy() {
    GenerationParams greedy = new GenerationParams(0.0, 1.0, 60, List.of(), OptionalLong.empty());
    GenerationParams nucleus = new GenerationParams(1.0, 1e-9, 60, List.of(), OptionalLong.empty());
    List<String> g = new ArrayList<>();
    List<String> n = new ArrayList<>();
    for (long s = 0; s < 5; s++) {
      g.add(generator.generate(List.of(request(random("tech", 0), greedy.withSeed(s)))).get(0).text());
      n.add(generator.generate(List.of(request(random("tech", 0), nucleus.withSeed(s)))).get(0).text());
    }
    assertThat(g.stream().distinct()).hasSize(1);
    assertThat(n).isEqualTo(g);
  }

  @Test
  void higherTemperatureGivesMoreDiverseText() {
    double low = distinctBigramShare(0.3);
    double high = distinctBigramShare(1.5);
    assertThat(high).isGreaterThan(low);
  }

  private static double distinctBigramShare(double temperature) {
    GenerationParams p = new GenerationParams(temperature, 1.0, 80, List.of(), OptionalLong.empty());
    java.util.Set<String> distinct = new java.util.HashSet<>();
    int total = 0;
    for (long s = 0; s < 30; s++) {
      List<String> t = WordTokenizer.tokenize(generator.generate(List.of(request(random(null, 30), p.withSeed(s)))).get(0).text());
      for (int i = 1; i < t.size(); i++) {
        distinct.add(t.get(i - 1) + " " + t.get(i));
        total++;
      }
    }
    return (double) distinct.size() / total;
  }

  @Test
  void unknownLabelFallsBackToTheGlobalModel() {
    GenerationResult r = generator.generate(List.of(request(random("no-such-label", 10), 1))).get(0);
    assertThat(r.text()).isNotBlank();
  }

  @Test
  void cancellationStopsOutstandingWork() {
    List<GenerationRequest> reqs = mixed(2000, 1);
    CompletableFuture<List<GenerationResult>> f = generator.generateAsync(reqs);
    f.cancel(true);
    assertThat(f.isCancelled()).isTrue();
    // The generator stays usable.
    assertThat(generator.generate(mixed(3, 1))).hasSize(3);
  }

  @Test
  void savedModelGeneratesTheSameText(@TempDir Path dir) {
    Path file = dir.resolve("model.ngram.gz");
    generator.save(file);
    assertThat(Files.isRegularFile(file)).isTrue();
    try (NgramTextGenerator loaded = NgramTextGenerator.builder().load(file).threads(1).build()) {
      assertThat(loaded.vocabularySize()).isEqualTo(generator.vocabularySize());
      assertThat(loaded.labels()).isEqualTo(generator.labels());
      List<GenerationRequest> reqs = mixed(40, 123);
      assertThat(loaded.generate(reqs)).isEqualTo(generator.generate(reqs));
    }
  }

  @Test
  void builderValidatesEagerly(@TempDir Path dir) {
    assertThatThrownBy(() -> NgramTextGenerator.builder().order(5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("order=5");
    assertThatThrownBy(() -> NgramTextGenerator.builder().train(List.of("a"), List.of("x", "y")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("texts=1 labels=2");
    assertThatThrownBy(() -> NgramTextGenerator.builder().labelWeight(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("labelWeight=NaN");
    assertThatThrownBy(() -> NgramTextGenerator.builder().keywordBoost(0.5))
        .hasMessageContaining("keywordBoost=0.5");
    assertThatThrownBy(() -> NgramTextGenerator.builder().train(java.util.Arrays.asList("a", null)))
        .hasMessageContaining("index 1");
    assertThatThrownBy(() -> NgramTextGenerator.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no training text");
    assertThatThrownBy(() -> NgramTextGenerator.builder().train(List.of("  ", "")).build())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> NgramTextGenerator.builder().load(dir.resolve("missing")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing");
  }

  @Test
  void everyOrderWorks() {
    for (int order = 2; order <= 4; order++) {
      try (NgramTextGenerator g = NgramTextGenerator.builder().order(order).train(TestCorpus.texts(30, 2)).threads(1).build()) {
        List<GenerationResult> r = g.generate(mixed(8, 10));
        assertThat(r).hasSize(8).allSatisfy(x -> assertThat(x.text()).isNotBlank());
      }
    }
  }

  /** [lo, hi] with P(X < lo) <= alpha/2 and P(X > hi) <= alpha/2 for X ~ Binomial(n, q). */
  static int[] binomialRegion(int n, double q, double alpha) {
    double[] logFactorial = new double[n + 1];
    for (int k = 1; k <= n; k++) {
      logFactorial[k] = logFactorial[k - 1] + Math.log(k);
    }
    double[] pmf = new double[n + 1];
    for (int k = 0; k <= n; k++) {
      pmf[k] = Math.exp(logFactorial[n] - logFactorial[k] - logFactorial[n - k]
          + k * Math.log(q) + (n - k) * Math.log1p(-q));
    }
    int lo = 0;
    double acc = 0;
    while (acc + pmf[lo] <= alpha / 2) {
      acc += pmf[lo++];
    }
    int hi = n;
    acc = 0;
    while (acc + pmf[hi] <= alpha / 2) {
      acc += pmf[hi--];
    }
    return new int[] {lo, hi};
  }
}
