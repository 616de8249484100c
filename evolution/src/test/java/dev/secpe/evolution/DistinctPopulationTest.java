package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.prompt.FillInMasking;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * No population, and so no output, holds one text twice unless the user asks for it; and no
 * request asks for a length outside the public records' range.
 */
class DistinctPopulationTest {

  /**
   * A generator that returns its parent unchanged for every fill-in whose seed is even (the copies
   * an in-process generator makes of one-sentence records), and a text of its own otherwise; a
   * fresh sample repeats an earlier one for one seed in four, and every fresh sample of its first
   * {@code stubbornCalls} calls is one and the same text. Records every request.
   */
  static final class Copying implements TextGenerator {
    final List<GenerationRequest> requests = new CopyOnWriteArrayList<>();
    private final boolean always;
    private final int stubbornCalls;
    private int calls;

    Copying(boolean always) {
      this(always, 0);
    }

    Copying(boolean always, int stubbornCalls) {
      this.always = always;
      this.stubbornCalls = stubbornCalls;
    }

    @Override
    public String name() {
      return "copying";
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public synchronized CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> batch) {
      requests.addAll(batch);
      boolean stubborn = calls++ < stubbornCalls;
      List<GenerationResult> out = new ArrayList<>();
      for (GenerationRequest r : batch) {
        long seed = r.params().seed().orElseThrow();
        String text;
        if (r.task() instanceof GenerationTask.FillIn f) {
          text = always || (seed & 1) == 0 ? f.parent() : f.parent() + " and " + Long.toHexString(seed);
        } else {
          text = always || stubborn ? "the same text"
              : "sample " + ((seed & 3) == 0 ? "zero" : Long.toHexString(seed)) + " of a public kind";
        }
        out.add(new GenerationResult(text, GenerationResult.FinishReason.STOP, 0, 0));
      }
      return CompletableFuture.completedFuture(out);
    }
  }

  private static AugPE.Builder run(TextGenerator g, RunListener listener) {
    return AugPE.builder()
        .privateData(Fixtures.privateData(40))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(g)
        .embedder(Fixtures.embedder())
        .syntheticSize(10)
        .variations(3)
        .iterations(3)
        .seed(5)
        .nonPrivate()
        .listener(listener);
  }

  @Test
  void everyPopulationAndTheOutputHoldDistinctTextsByDefault() {
    Copying g = new Copying(false);
    List<List<SyntheticText>> survivors = new CopyOnWriteArrayList<>();
    RunResult r = run(g, e -> {
      if (e instanceof RunEvent.SurvivorsSelected s) {
        survivors.add(s.survivors());
      }
    }).build().run();
    List<String> out = r.dataset().records().stream().map(SyntheticText::text).toList();
    assertThat(new HashSet<>(out)).hasSameSizeAs(out);
    assertThat(out).hasSize(10);
    for (List<SyntheticText> round : survivors) {
      List<String> texts = round.stream().map(SyntheticText::text).toList();
      assertThat(new HashSet<>(texts)).as("survivors of a round").hasSameSizeAs(texts);
    }
    // The copies were asked for again: more fill-ins than the plan's 2 rounds x 10 survivors x 3.
    assertThat(g.requests.stream().filter(q -> q.task() instanceof GenerationTask.FillIn).count())
        .isGreaterThan(2L * 10 * 3);
  }

  @Test
  void copiesAreKeptWhenTheUserAsksForThem() {
    Copying g = new Copying(false);
    run(g, e -> {}).allowDuplicates(true).build().run();
    // Nothing was asked for again: exactly the fill-ins the plan makes.
    assertThat(g.requests.stream().filter(q -> q.task() instanceof GenerationTask.FillIn).count())
        .isEqualTo(2L * 10 * 3);
  }

  @Test
  void aGeneratorThatOnlyRepeatsItselfIsLeftOutAndTheReportSaysSo() {
    RunResult r = run(new Copying(true), e -> {}).build().run();
    List<String> out = r.dataset().records().stream().map(SyntheticText::text).toList();
    assertThat(new HashSet<>(out)).hasSameSizeAs(out);
    assertThat(r.report().warnings()).anyMatch(w -> w.contains("stayed copies") && w.contains("allowDuplicates"));
  }

  @Test
  void aCopyIsAskedForAgainUntilTheGeneratorGivesANewText() {
    // The first population is asked for once and then, for its copies, once per retry: a generator
    // that repeats itself for six calls (the first and five retries) still fills it. With three
    // retries (the rule before) the output held a single text.
    RunResult r = run(new Copying(false, 6), e -> {}).iterations(1).build().run();
    List<String> out = r.dataset().records().stream().map(SyntheticText::text).toList();
    assertThat(new HashSet<>(out)).hasSameSizeAs(out);
    assertThat(out).hasSize(10);
    assertThat(r.report().warnings()).noneMatch(w -> w.contains("stayed copies"));
  }

  @Test
  void dpgaNeverAsksForATextLongerThanAnyPublicRecordAtSmallN() {
    // At 40 private records and epsilon 1 the SVT's Laplace noise (scale 4/eps per query) lets the
    // released maximum length run far past every record; the targets must still stay in range.
    Copying g = new Copying(false);
    DPGA.builder()
        .privateData(Fixtures.privateData(40))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(g)
        .embedder(Fixtures.embedder())
        .budget(new dev.secpe.accounting.DpBudget(1.0, 1e-5))
        .syntheticSize(8)
        .iterations(2)
        .tauSample(20)
        .seed(3)
        .noise(dev.secpe.accounting.noise.NoiseSources.reproducibleForTests(11))
        .build()
        .run();
    int hi = Fixtures.publicData(30).texts().stream().mapToInt(FillInMasking::wordCount).max().orElseThrow();
    assertThat(g.requests).isNotEmpty();
    assertThat(g.requests.stream()
            .filter(q -> q.task() instanceof GenerationTask.Random)
            .mapToInt(q -> ((GenerationTask.Random) q.task()).targetWords()))
        .allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(hi));
  }

  @Test
  void noRequestAsksForALengthOutsideThePublicRange() {
    Copying g = new Copying(false);
    run(g, e -> {}).build().run();
    int lo = Integer.MAX_VALUE;
    int hi = 0;
    for (String t : Fixtures.publicData(30).texts()) {
      lo = Math.min(lo, FillInMasking.wordCount(t));
      hi = Math.max(hi, FillInMasking.wordCount(t));
    }
    assertThat(g.requests).isNotEmpty();
    for (GenerationRequest q : g.requests) {
      int target = q.task() instanceof GenerationTask.Random x ? x.targetWords()
          : q.task() instanceof GenerationTask.FillIn f ? f.targetWords() : 0;
      if (target > 0) {
        assertThat(target).isBetween(lo, hi);
      }
    }
  }
}
