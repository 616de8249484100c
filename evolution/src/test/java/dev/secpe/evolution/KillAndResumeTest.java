package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PhaseTimings;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.llm.embedded.NgramTextGenerator;
import dev.secpe.llm.testkit.FakeTextEmbedder;
import dev.secpe.llm.testkit.FakeTextGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Kill and resume is the same run, for every method at every point: a run is killed at each event
 * it emits in turn (every round boundary, every phase, after a release is charged and before its
 * noise is drawn, after a release is drawn and before the round's checkpoint, between generation
 * batches), by a fault thrown at that very point or by {@code cancel()}, then resumed from its
 * checkpoint; some runs are killed twice. With the same seed and reproducible noise the resumed
 * run's output, report (but timings) and ledger, and the noisy votes of every round it runs, equal
 * the uninterrupted run's.
 *
 * <p>Public API only: the builders, {@link RunListener} events and {@code cancel()}, the testkit's
 * fakes and the embedded n-gram generator (CTCL needs a fine-tunable one).
 */
class KillAndResumeTest {

  private static NgramTextGenerator ngram;

  @BeforeAll
  static void trainTheNgramGenerator() {
    ngram = NgramTextGenerator.builder().order(3).threads(1).seed(3)
        .train(Fixtures.publicData(120).texts()).build();
  }

  @AfterAll
  static void closeIt() {
    ngram.close();
  }

  private static NoiseSource noise() {
    return NoiseSources.reproducibleForTests(5);
  }

  /** One run of a method: what {@code run()} and {@code cancel()} of its built object do. */
  private record Run(java.util.function.Supplier<RunResult> run, Runnable cancel) {}

  /** A method at a small size: builds a run checkpointing to {@code dir}. */
  private interface Method {
    Run build(Path dir, boolean resume, RunListener listener);
  }

  private static final Map<String, Method> METHODS = new TreeMap<>(Map.of(
      "secpe", (dir, resume, l) -> {
        SecPE s = SecPE.builder().privateData(Fixtures.privateData(80)).publicData(Fixtures.publicData(60))
            .labels(Fixtures.released())
            .generator(FakeTextGenerator.builder().build()).embedder(FakeTextEmbedder.builder().dimension(32).build())
            .secrets(PiiDetector.all()).budget(SecretBudget.ofRatio(1e-4, 10)).clusters(6)
            .syntheticSize(12).variations(2).iterations(3).seed(5).noise(noise())
            .checkpoint(dir).resume(resume).listener(l).build();
        return new Run(s::run, s::cancel);
      },
      "augpe", (dir, resume, l) -> {
        AugPE a = AugPE.builder().privateData(Fixtures.privateData(80)).publicData(Fixtures.publicData(40))
            .labels(Fixtures.released())
            .generator(FakeTextGenerator.builder().build()).embedder(FakeTextEmbedder.builder().dimension(32).build())
            .budget(new DpBudget(2.0, 1e-5)).syntheticSize(12).variations(2).iterations(3).seed(11).noise(noise())
            .checkpoint(dir).resume(resume).listener(l).build();
        return new Run(a::run, a::cancel);
      },
      "dpga", (dir, resume, l) -> {
        DPGA d = DPGA.builder().privateData(Fixtures.privateData(80)).publicData(Fixtures.publicData(40))
            .labels(Fixtures.released())
            .generator(FakeTextGenerator.builder().build()).embedder(FakeTextEmbedder.builder().dimension(32).build())
            .budget(new DpBudget(1.0, 1e-5)).syntheticSize(12).iterations(3).tauSample(60).seed(9).noise(noise())
            .checkpoint(dir).resume(resume).listener(l).build();
        return new Run(d::run, d::cancel);
      },
      "ctcl", (dir, resume, l) -> {
        CTCL c = CTCL.builder().privateData(Fixtures.privateData(60)).publicData(Fixtures.publicData(120))
            .labels(Fixtures.released())
            .generator(ngram).embedder(FakeTextEmbedder.builder().dimension(32).build())
            .budget(new DpBudget(1.0, 1e-3)).topics(4).steps(40).batchSize(15)
            .syntheticSize(12).seed(5).noise(noise())
            .checkpoint(dir).resume(resume).listener(l).build();
        return new Run(c::run, c::cancel);
      }));

  /** What a run leaves that a resumed run must reproduce. */
  private record Outcome(List<SyntheticText> output, PrivacyReport report, Map<Integer, RunEvent.SurvivorsSelected> rounds) {}

  /** The thrown fault that stands for a kill at one point. */
  private static final class Killed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Killed(String where) {
      super("killed at " + where);
    }
  }

  private enum Kill {
    /** A fault thrown from the listener: the run stops at that very point. */
    THROW,
    /** {@code cancel()} from the listener: the run stops at its next cancellation check. */
    CANCEL
  }

  private static final Map<String, Outcome> REFERENCE = new java.util.concurrent.ConcurrentHashMap<>();
  private static final Map<String, List<String>> EVENTS = new java.util.concurrent.ConcurrentHashMap<>();

  @TempDir static Path tmp;
  private static final AtomicInteger DIRS = new AtomicInteger();

  /** A fresh checkpoint directory (not created: a run creates it). */
  private static Path fresh() {
    return tmp.resolve("cp-" + DIRS.incrementAndGet());
  }

  /** The uninterrupted run (with a checkpoint, as the others), and the events it emits, once per method. */
  private static Outcome reference(String method) {
    return REFERENCE.computeIfAbsent(method, m -> {
      List<String> events = new ArrayList<>();
      Outcome o = runToEnd(m, fresh(), false, e -> events.add(describe(e)));
      EVENTS.put(m, List.copyOf(events));
      return o;
    });
  }

  private static Outcome runToEnd(String method, Path dir, boolean resume, RunListener also) {
    Map<Integer, RunEvent.SurvivorsSelected> rounds = new TreeMap<>();
    RunResult r = METHODS.get(method).build(dir, resume, e -> {
      also.onEvent(e);
      if (e instanceof RunEvent.SurvivorsSelected s) {
        rounds.put(s.round(), s);
      }
    }).run().get();
    return new Outcome(r.dataset().records(), r.report(), rounds);
  }

  private static String describe(RunEvent e) {
    if (e instanceof RunEvent.Progress p) {
      return "Progress(round " + p.round() + ", " + p.phase() + ", " + p.done() + "/" + p.total() + ")";
    }
    if (e instanceof RunEvent.PhaseFinished p) {
      return "PhaseFinished(round " + p.round() + ", " + p.phase() + ")";
    }
    if (e instanceof RunEvent.ReleaseCharged c) {
      return "ReleaseCharged(" + c.release().id() + ")";
    }
    if (e instanceof RunEvent.CheckpointWritten c) {
      return "CheckpointWritten(round " + c.round() + ")";
    }
    if (e instanceof RunEvent.SurvivorsSelected s) {
      return "SurvivorsSelected(round " + s.round() + ")";
    }
    if (e instanceof RunEvent.RoundStarted s) {
      return "RoundStarted(round " + s.round() + ")";
    }
    if (e instanceof RunEvent.RoundFinished s) {
      return "RoundFinished(round " + s.round() + ")";
    }
    return e.getClass().getSimpleName();
  }

  /**
   * Starts a run that is killed at its {@code at}-th event (0-based); returns whether it was
   * stopped (false: it ran to its end, e.g. cancelled after its last cancellation check).
   */
  private static boolean killedRun(String method, Path dir, boolean resume, int at, Kill how) {
    AtomicReference<Run> run = new AtomicReference<>();
    AtomicInteger seen = new AtomicInteger();
    run.set(METHODS.get(method).build(dir, resume, e -> {
      if (seen.getAndIncrement() == at) {
        if (how == Kill.THROW) {
          throw new Killed(describe(e));
        }
        run.get().cancel();
      }
    }));
    try {
      run.get().run().get();
      return false;
    } catch (Killed | CancellationException e) {
      return true;
    }
  }

  /** Whether a checkpoint was written to {@code dir} (a run killed before its first one has none). */
  private static boolean hasCheckpoint(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(".json"));
    }
  }

  /**
   * DPGA's and CTCL's {@code build()} calibrates their noise with the PLD accountant (2 to 3 s each
   * on a loaded 2-core machine), so by default they are killed at the points that stand for every
   * kind: after a one-off release is charged and before its noise is drawn, after a round's votes
   * are drawn and before the round's checkpoint, at a round boundary, during generation. {@code
   * -Pslow} kills them at every event too.
   */
  private static final Map<String, List<String>> CHOSEN_POINTS = Map.of(
      "dpga", List.of("ReleaseCharged(dpga/length-max)", "ReleaseCharged(dpga/keywords)", "SurvivorsSelected(round 0)",
          "CheckpointWritten(round 1)", "SurvivorsSelected(round 1)"),
      "ctcl", List.of("ReleaseCharged(ctcl-topic-histogram)", "ReleaseCharged(ctcl-dp-finetune)",
          "PhaseFinished(round 0, SELECTION)", "Progress(round 0, GENERATION, 12/12)"));

  /**
   * One test per event of each method's uninterrupted run (DPGA and CTCL: per chosen point):
   * killed there by a thrown fault, and (every third event) by {@code cancel()}, then resumed.
   */
  @TestFactory
  Stream<DynamicNode> killedAtEveryEventAndResumedIsTheUninterruptedRun() {
    return METHODS.keySet().stream().map(method -> killedAtEachOf(method, at -> {
      List<String> chosen = CHOSEN_POINTS.get(method);
      return chosen == null || chosen.contains(EVENTS.get(method).get(at));
    }));
  }

  /** The events {@link #killedAtEveryEventAndResumedIsTheUninterruptedRun} leaves out for speed. */
  @TestFactory
  @org.junit.jupiter.api.Tag("slow")
  Stream<DynamicNode> slowKilledAtTheOtherEventsAndResumed() {
    return CHOSEN_POINTS.keySet().stream().sorted().map(method ->
        killedAtEachOf(method, at -> !CHOSEN_POINTS.get(method).contains(EVENTS.get(method).get(at))));
  }

  private static DynamicNode killedAtEachOf(String method, java.util.function.IntPredicate points) {
    Outcome whole = reference(method);
    List<String> events = EVENTS.get(method);
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      if (!points.test(i)) {
        continue;
      }
      int at = i;
      String where = "#" + at + " " + events.get(at);
      tests.add(DynamicTest.dynamicTest("thrown at " + where, () -> {
        Path cp = fresh();
        assertThat(killedRun(method, cp, false, at, Kill.THROW)).as("a fault thrown at %s stops the run", where).isTrue();
        assertSameRun(runToEnd(method, cp, hasCheckpoint(cp), e -> {}), whole, method + " killed at " + where);
      }));
      if (at % 3 == 0) {
        tests.add(DynamicTest.dynamicTest("cancelled at " + where, () -> {
          Path cp = fresh();
          killedRun(method, cp, false, at, Kill.CANCEL);
          assertSameRun(runToEnd(method, cp, hasCheckpoint(cp), e -> {}), whole, method + " cancelled at " + where);
        }));
      }
    }
    return DynamicContainer.dynamicContainer(method + " (" + events.size() + " events)", tests);
  }

  /**
   * Killed twice, at pseudo-random points (seeded): once in the first run, once in the resumed
   * one; the third run finishes, and resuming the finished run again draws nothing.
   */
  @TestFactory
  Stream<DynamicNode> killedTwiceAndResumedIsTheUninterruptedRun() {
    Random rng = new Random(13);
    return METHODS.keySet().stream().map(method -> {
      Outcome whole = reference(method);
      int n = EVENTS.get(method).size();
      List<DynamicTest> tests = new ArrayList<>();
      for (int i = 0; i < (CHOSEN_POINTS.containsKey(method) ? 1 : 4); i++) {
        int first = rng.nextInt(n);
        int second = rng.nextInt(n);
        tests.add(DynamicTest.dynamicTest("killed at #" + first + ", then at #" + second + " of the resumed run", () -> {
          Path cp = fresh();
          killedRun(method, cp, false, first, Kill.THROW);
          killedRun(method, cp, hasCheckpoint(cp), second, Kill.THROW);
          assertSameRun(runToEnd(method, cp, hasCheckpoint(cp), e -> {}), whole,
              method + " killed at #" + first + " and #" + second);
          List<String> charged = new ArrayList<>();
          Outcome again = runToEnd(method, cp, true, e -> {
            if (e instanceof RunEvent.ReleaseCharged c) {
              charged.add(c.release().id());
            }
          });
          assertThat(charged).isEmpty();
          assertThat(again.output()).isEqualTo(whole.output());
        }));
      }
      return DynamicContainer.dynamicContainer(method, tests);
    });
  }

  private static void assertSameRun(Outcome resumed, Outcome whole, String what) {
    assertThat(resumed.output()).as("%s: output", what).isEqualTo(whole.output());
    assertThat(resumed.report().mechanisms()).as("%s: ledger", what).isEqualTo(whole.report().mechanisms());
    assertThat(comparable(resumed.report())).as("%s: report", what).isEqualTo(comparable(whole.report()));
    // Every round the resumed run voted in: the same noisy votes and the same survivors.
    assertThat(resumed.rounds().keySet()).as("%s: rounds", what).isSubsetOf(whole.rounds().keySet());
    resumed.rounds().forEach((round, s) -> {
      RunEvent.SurvivorsSelected w = whole.rounds().get(round);
      assertThat(s.votes()).as("%s: votes of round %d", what, round).containsExactly(w.votes());
      assertThat(s.survivors()).as("%s: survivors of round %d", what, round).isEqualTo(w.survivors());
    });
  }

  /** The report without what may differ: timings, embedding counts, and the line that says it was resumed. */
  private static PrivacyReport comparable(PrivacyReport r) {
    List<String> deviations = r.deviations().stream().filter(d -> !d.startsWith("Resumed from round")).toList();
    return new PrivacyReport(r.method(), r.syntheticRecords(), r.privateRecords(), r.mu(), r.dp(), r.secretBudget(),
        r.sigma(), r.mechanisms(), deviations, r.noise(), r.providers(), PhaseTimings.ZERO, List.of(), r.warnings(),
        Optional.empty(), r.guarantee());
  }

  @org.junit.jupiter.api.Test
  void aFaultAtAReleaseStopsTheRunAndIsNotSwallowed() {
    // The injection itself: a fault thrown after a release is charged (before its noise) ends run().
    AtomicReference<Run> run = new AtomicReference<>();
    run.set(METHODS.get("augpe").build(fresh(), false, e -> {
      if (e instanceof RunEvent.ReleaseCharged) {
        throw new Killed("charge");
      }
    }));
    assertThatThrownBy(() -> run.get().run().get()).isInstanceOf(Killed.class);
  }
}
