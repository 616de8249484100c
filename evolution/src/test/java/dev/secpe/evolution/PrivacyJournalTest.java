package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.report.RunEvent;
import dev.secpe.evolution.persist.CheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The privacy journal (issue 32): one run per dataset at a time, a checkpoint that disagrees with
 * the journal refused before anything is drawn, releases kept across a failed checkpoint write, and
 * the dataset's lifetime budget. Each case failed before the journal existed (two runs both drew,
 * the rolled-back and forged checkpoints resumed and drew again).
 */
class PrivacyJournalTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static AugPE.Builder run(Path journal, Path checkpoint, Fixtures.CountingNoise noise) {
    AugPE.Builder b = Fixtures.augpe(noise).iterations(3).journal(PrivacyJournal.at(journal));
    return checkpoint == null ? b : b.checkpoint(checkpoint);
  }

  private static List<String> ids(RunResult r) {
    return r.report().mechanisms().stream().map(Release::id).toList();
  }

  // fault: two library runs at once in one JVM on one dataset (builders given one `PrivacyJournal`) or one checkpoint directory (with or without a journal)
  // holds: the second is refused (`IllegalStateException`, "another run is using the privacy journal of this dataset" / "… the checkpoint directory") and draws nothing; the journal holds the first run's releases once
  @Test
  void aSecondRunOnTheSameDatasetOrCheckpointIsRefusedWhileTheFirstRunsAndDrawsNothing(@TempDir Path dir) throws Exception {
    CountDownLatch charged = new CountDownLatch(1);
    CountDownLatch goOn = new CountDownLatch(1);
    CompletableFuture<RunResult> first = CompletableFuture.supplyAsync(() -> run(dir.resolve("j"), dir.resolve("a"), new Fixtures.CountingNoise(1))
        .listener(e -> {
          if (e instanceof RunEvent.ReleaseCharged && charged.getCount() > 0) {
            charged.countDown();
            await(goOn);
          }
        }).build().run());
    assertThat(charged.await(60, TimeUnit.SECONDS)).isTrue();
    try {
      Fixtures.CountingNoise other = new Fixtures.CountingNoise(2);
      assertThatThrownBy(() -> run(dir.resolve("j"), dir.resolve("b"), other).build().run())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("another run is using the privacy journal of this dataset");
      // The same checkpoint directory is one run's even without a journal.
      assertThatThrownBy(() -> Fixtures.augpe(other).checkpoint(dir.resolve("a")).build().run())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("another run is using the checkpoint directory");
      assertThat(other.draws.get()).isZero();
    } finally {
      goOn.countDown();
    }
    RunResult done = first.get(120, TimeUnit.SECONDS);
    PrivacyJournal.History h = PrivacyJournal.at(dir.resolve("j")).history(Fixtures.privateData(100));
    assertThat(h.runs()).hasSize(1);
    assertThat(h.runs().get(0).status()).isEqualTo("finished");
    assertThat(h.charged()).isEqualTo(done.report().mechanisms());
    // Once it ended, the next run may go (and spends the budget a second time, journalled as such).
    run(dir.resolve("j"), dir.resolve("b"), new Fixtures.CountingNoise(3)).build().run();
    assertThat(PrivacyJournal.at(dir.resolve("j")).history(Fixtures.privateData(100)).runs()).hasSize(2);
  }

  private static void await(CountDownLatch l) {
    try {
      l.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void aRolledBackCheckpointIsRefusedAndDrawsNothing(@TempDir Path dir) throws Exception {
    Path ck = dir.resolve("ck");
    AtomicReference<byte[]> round1 = new AtomicReference<>();
    run(dir.resolve("j"), ck, new Fixtures.CountingNoise(1)).listener(e -> {
      if (e instanceof RunEvent.CheckpointWritten w && w.round() == 1) {
        round1.set(read(w.location()));
      }
    }).build().run();
    Files.write(ck.resolve(CheckpointStore.FILE), round1.get());
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(2);
    assertThatThrownBy(() -> run(dir.resolve("j"), ck, noise).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is an older checkpoint of its run")
        .hasMessageContaining("nothing was drawn");
    assertThat(noise.draws.get()).isZero();
  }

  @Test
  void aCheckpointWithForgedValuesOrEmptiedReleasesOrFromAnotherDatasetIsRefused(@TempDir Path dir) throws Exception {
    Path ck = dir.resolve("ck");
    run(dir.resolve("j"), ck, new Fixtures.CountingNoise(1)).build().run();
    Path file = ck.resolve(CheckpointStore.FILE);
    byte[] original = Files.readAllBytes(file);
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(2);

    ObjectNode edited = (ObjectNode) JSON.readTree(original);
    ArrayNode votes = (ArrayNode) edited.get("values").get("augpe/round-1/votes");
    votes.set(0, votes.get(0).asDouble() + 100);
    forge(file, edited);
    assertThatThrownBy(() -> run(dir.resolve("j"), ck, noise).resume(true).build().run())
        .hasMessageContaining("disagrees with the privacy journal")
        .hasMessageContaining("differ from those drawn");

    ObjectNode emptied = (ObjectNode) JSON.readTree(original);
    emptied.putArray("releases");
    emptied.putObject("values");
    forge(file, emptied);
    assertThatThrownBy(() -> run(dir.resolve("j"), ck, noise).resume(true).build().run())
        .hasMessageContaining("holds 0 release(s)")
        .hasMessageContaining("rolled back or replaced");

    // Another dataset's checkpoint with its input digest swapped for this one's.
    Path other = dir.resolve("other");
    Fixtures.augpe(new Fixtures.CountingNoise(4)).iterations(3).privateData(Fixtures.privateData(90))
        .journal(PrivacyJournal.at(dir.resolve("j"))).checkpoint(other).build().run();
    ObjectNode foreign = (ObjectNode) JSON.readTree(other.resolve(CheckpointStore.FILE).toFile());
    foreign.put("inputs", JSON.readTree(original).get("inputs").asText());
    forge(file, foreign);
    assertThatThrownBy(() -> run(dir.resolve("j"), ck, noise).resume(true).build().run())
        .hasMessageContaining("belongs to a run this dataset's privacy journal")
        .hasMessageContaining("never seen");

    // Without the journal a checkpoint written under one is not resumed either.
    Files.write(file, original);
    assertThatThrownBy(() -> Fixtures.augpe(noise).iterations(3).checkpoint(ck).resume(true).build().run())
        .hasMessageContaining("was written under a privacy journal");
    assertThat(noise.draws.get()).isZero();
    // The untouched checkpoint resumes and draws nothing (the run had finished).
    run(dir.resolve("j"), ck, noise).resume(true).build().run();
    assertThat(noise.draws.get()).isZero();
  }

  /** Writes {@code root} with its integrity digest recomputed, as anyone can. */
  private static void forge(Path file, ObjectNode root) throws Exception {
    root.remove("integrity");
    String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(JSON.writeValueAsBytes(root)));
    root.put("integrity", digest);
    Files.write(file, JSON.writeValueAsBytes(root));
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  // fault: a checkpoint write fails after a release was drawn, the run's first release included (library run under a journal)
  // holds: the run fails, the previous checkpoint is kept (under a journal one is written before the first draw) and no temporary file stays; `resume(true)` serves the release from the journal (no new draw) and the output equals the uninterrupted run's
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"augpe/labels", "augpe/round-2/votes"})
  void releasesDrawnAfterTheLastCheckpointAreServedFromTheJournalNotDrawnAgain(String failAfter, @TempDir Path dir) throws Exception {
    Path ck = dir.resolve("ck");
    Path file = ck.resolve(CheckpointStore.FILE);
    // The checkpoint write after the release fails (its path becomes a directory, as a full disk
    // would fail it): the release was drawn and journalled, the checkpoint is the one before.
    assertThatThrownBy(() -> run(dir.resolve("j"), ck, null)
        .noise(Fixtures.CountingNoise.perRelease(5)).listener(e -> {
      if (e instanceof RunEvent.ReleaseCharged c && c.release().id().equals(failAfter)) {
        try {
          Files.move(file, ck.resolve("good.json"));
          Files.createDirectories(file.resolve("blocked"));
        } catch (java.io.IOException io) {
          throw new java.io.UncheckedIOException(io);
        }
      }
    }).build().run()).hasMessageContaining("cannot write checkpoint");
    assertThat(ck).isDirectoryNotContaining("glob:**.tmp");
    Files.delete(file.resolve("blocked"));
    Files.delete(file);
    Files.move(ck.resolve("good.json"), file);

    // Reproducible noise of the same seed, one stream per release (as a resumed run needs): a
    // release drawn again would equal the first draw, so what shows it was not is the count of
    // draws (and the journal, which refuses a second draw).
    Fixtures.CountingNoise noise = Fixtures.CountingNoise.perRelease(5);
    RunResult resumed = Fixtures.augpe(null).noise(noise).iterations(3).journal(PrivacyJournal.at(dir.resolve("j")))
        .checkpoint(ck).resume(true).build().run();
    Fixtures.CountingNoise all = Fixtures.CountingNoise.perRelease(5);
    RunResult whole = Fixtures.augpe(null).noise(all).iterations(3).journal(PrivacyJournal.at(dir.resolve("j2")))
        .checkpoint(dir.resolve("whole")).build().run();
    assertThat(ids(resumed)).isEqualTo(ids(whole));
    assertThat(resumed.dataset().records().stream().map(t -> t.text()).toList())
        .isEqualTo(whole.dataset().records().stream().map(t -> t.text()).toList());
    // The resumed run draws what the whole run drew after failAfter, nothing up to it.
    long upTo = 0;
    for (java.util.Map.Entry<String, double[]> v : new CheckpointStore(dir.resolve("whole")).read().values().entrySet()) {
      upTo += v.getValue().length;
      if (v.getKey().equals(failAfter)) {
        break;
      }
    }
    assertThat(noise.draws.get()).as("draws after the resume: %s and those before it are not among them", failAfter)
        .isEqualTo(all.draws.get() - upTo);
    assertThat(PrivacyJournal.at(dir.resolve("j")).history(Fixtures.privateData(100)).charged())
        .isEqualTo(resumed.report().mechanisms());
  }

  // fault: a run dies between a release's charge and its draw
  // holds: the journal keeps the charge (it counts as spent); the resumed run draws that release (its noise never left the dead process) without charging it again, and the journal says so (`redraw`); a release already drawn in the run's lineage is never drawn again
  @Test
  void aChargeWhoseRunDiedBeforeTheDrawIsNotChargedAgain(@TempDir Path dir) {
    Path ck = dir.resolve("ck");
    assertThatThrownBy(() -> run(dir.resolve("j"), ck, new Fixtures.CountingNoise(1)).listener(e -> {
      if (e instanceof RunEvent.ReleaseCharged c && c.release().id().equals("augpe/round-1/votes")) {
        throw new IllegalStateException("died after the charge");
      }
    }).build().run()).hasMessageContaining("died after the charge");
    RunResult resumed = run(dir.resolve("j"), ck, new Fixtures.CountingNoise(2)).resume(true).build().run();
    PrivacyJournal.History h = PrivacyJournal.at(dir.resolve("j")).history(Fixtures.privateData(100));
    assertThat(h.charged()).isEqualTo(resumed.report().mechanisms());
    assertThat(h.runs()).extracting(PrivacyJournal.Run::status).containsExactly("failed (IllegalStateException)", "finished");
  }

  @Test
  void theLifetimeBudgetRefusesARunBeforeItDrawsAndHistoryComposesEveryRun(@TempDir Path dir) {
    PrivacyJournal journal = PrivacyJournal.at(dir.resolve("j"));
    // Secure noise: the journal counts releases drawn with seeded noise as unbounded.
    RunResult first = run(dir.resolve("j"), null, Fixtures.CountingNoise.secure()).build().run();
    double once = first.report().dp().orElseThrow().epsilon();
    journal.limit(Fixtures.privateData(100), new DpBudget(2.5, 1e-5));
    // Records in another order are the same dataset.
    List<dev.secpe.core.PrivateRecord> reversed = new java.util.ArrayList<>(Fixtures.privateData(100).records());
    java.util.Collections.reverse(reversed);
    Fixtures.CountingNoise noise = Fixtures.CountingNoise.secure();
    assertThatThrownBy(() -> run(dir.resolve("j"), null, noise).privateData(dev.secpe.core.PrivateDataset.of(reversed)).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("lifetime budget (epsilon 2.5 at delta 1.0E-5)");
    assertThat(noise.draws.get()).isZero();
    PrivacyJournal.History h = journal.history(Fixtures.privateData(100));
    assertThat(h.limit().orElseThrow().dp()).contains(new DpBudget(2.5, 1e-5));
    assertThat(h.spent(1e-5, 1e-3).epsilon()).isCloseTo(once, org.assertj.core.data.Offset.offset(1e-6));
    // A second run without the limit composes with the first: more than one run's epsilon.
    PrivacyJournal other = PrivacyJournal.at(dir.resolve("k"));
    run(dir.resolve("k"), null, Fixtures.CountingNoise.secure()).build().run();
    run(dir.resolve("k"), null, Fixtures.CountingNoise.secure()).build().run();
    assertThat(other.history(Fixtures.privateData(100)).spent(1e-5, 1e-3).epsilon()).isGreaterThan(once * 1.2);
    assertThatThrownBy(() -> journal.limit(Fixtures.privateData(100), (DpBudget) null)).isInstanceOf(NullPointerException.class);
    assertThat(BudgetExceededException.class).isAssignableTo(IllegalStateException.class);
  }

  /** SecPE over 40 records, the spam half holding an e-mail address, journalled with secure noise. */
  private static SecPE.Builder secpe(PrivacyJournal journal) {
    return SecPE.builder()
        .privateStore(PrivateStore.inMemory(SecretFreeSplitTest.onlySpamHoldsSecrets(40)))
        .publicData(Fixtures.publicData(80))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .secrets(dev.secpe.core.secret.PiiDetector.all())
        .budget(dev.secpe.accounting.SecretBudget.ofRatio(1e-4, 10))
        .syntheticSize(20)
        .variations(2)
        .iterations(1)
        .clusters(8)
        .seed(5)
        .noise(Fixtures.CountingNoise.secure())
        .journal(journal);
  }

  // fault: a SecPE split run and a plain SecPE run on one dataset left journal entries that differed only in ids and times, and the record-level total said epsilon 0.0 although the split used every secret-free record without noise
  // holds: each `run` entry names its `mode` ("secpe", "secpe-split", "secpe-split-votes"; Aug-PE, DPGA, CTCL their method) and `exactRecords`; `History.total(...).recordLevel()` composes nothing (unbounded) where a run used records exactly or protected secrets only, counts those runs and says why, and keeps what the record-level releases alone compose; an Aug-PE-only dataset stays bounded; each report's guarantee names its scope (per secret, records used exactly)
  @Test
  void theJournalTellsASplitRunFromAPlainOneAndNeverBoundsRecordsItUsedExactly(@TempDir Path dir) {
    PrivacyJournal journal = PrivacyJournal.at(dir.resolve("j"));
    RunResult plain = secpe(journal).build().run();
    RunResult split = secpe(journal).secretFreeAsPublic(true).build().run();
    RunResult votes = secpe(journal).secretFreeAsPublic(true).secretFreeVotes(true).build().run();
    PrivacyJournal.History h = journal.history(SecretFreeSplitTest.onlySpamHoldsSecrets(40));
    assertThat(h.runs()).extracting(PrivacyJournal.Run::mode).containsExactly("secpe", "secpe-split", "secpe-split-votes");
    assertThat(h.runs()).extracting(PrivacyJournal.Run::exactRecords).containsExactly(false, true, true);
    PrivacyJournal.Total t = h.total(1e-5, 1e-4);
    PrivacyJournal.Subtotal rec = t.recordLevel();
    assertThat(rec.releases()).isZero();
    assertThat(rec.composed()).as("never epsilon 0 for records used exactly").isEmpty();
    assertThat(rec.bounded()).isFalse();
    assertThat(rec.exactRecordRuns()).isEqualTo(2);
    assertThat(rec.secretNoiseRuns()).isEqualTo(1);
    assertThat(rec.unbounded()).hasValueSatisfying(why -> assertThat(why)
        .contains("2 run(s) used the records in which the detector found no secret exactly")
        .contains("1 SecPE run(s) without the split protected secrets, not records"));
    assertThat(t.perSecret().composed()).as("the per-secret guarantee still composes").isPresent();

    assertThat(plain.report().guarantee()).hasValueSatisfying(g -> {
      assertThat(g.mode()).isEqualTo("secpe");
      assertThat(g.exactRecords()).isFalse();
      assertThat(g.statement()).startsWith("(p, r)-secret protection of each detected secret")
          .contains("no record-level bound");
    });
    assertThat(split.report().guarantee()).hasValueSatisfying(g -> {
      assertThat(g.mode()).isEqualTo("secpe-split");
      assertThat(g.exactRecords()).isTrue();
      assertThat(g.statement()).startsWith("(p, r)-secret protection of each detected secret")
          .contains("used exactly, without noise");
    });
    assertThat(votes.report().guarantee().orElseThrow().mode()).isEqualTo("secpe-split-votes");

    // Aug-PE alone: record-level DP, bounded, its own mode.
    PrivacyJournal other = PrivacyJournal.at(dir.resolve("k"));
    RunResult augpe = run(dir.resolve("k"), null, Fixtures.CountingNoise.secure()).build().run();
    PrivacyJournal.History k = other.history(Fixtures.privateData(100));
    assertThat(k.runs()).extracting(PrivacyJournal.Run::mode).containsExactly("augpe");
    assertThat(k.runs()).extracting(PrivacyJournal.Run::exactRecords).containsExactly(false);
    PrivacyJournal.Subtotal augRec = k.total(1e-5, 1e-3).recordLevel();
    assertThat(augRec.bounded()).isTrue();
    assertThat(augRec.unbounded()).isEmpty();
    assertThat(augRec.composed().orElseThrow().epsilon())
        .isCloseTo(augpe.report().dp().orElseThrow().epsilon(), org.assertj.core.data.Offset.offset(1e-6));
    assertThat(augpe.report().guarantee().orElseThrow().statement()).startsWith("record-level differential privacy");
  }

  // fault: the journal kept no prior of a SecPE run's (p, r) budget, so `privacy spent` without `--p` gave mu but no r (issue 53)
  // holds: a SecPE run entry journals `prior`, the p of its budget (`Run.prior()`); `History.priors()` gives the priors of the runs that charged per-secret releases, each once; an Aug-PE run has none
  @Test
  void aSecPERunJournalsThePriorOfItsBudget(@TempDir Path dir) throws Exception {
    PrivacyJournal journal = PrivacyJournal.at(dir.resolve("j"));
    secpe(journal).build().run();
    secpe(journal).secretFreeAsPublic(true).build().run();
    PrivacyJournal.History h = journal.history(SecretFreeSplitTest.onlySpamHoldsSecrets(40));
    assertThat(h.runs()).allSatisfy(r -> assertThat(r.prior()).hasValue(1e-4));
    assertThat(h.priors()).containsExactly(1e-4);
    assertThat(java.nio.file.Files.readAllLines(h.file()).stream().filter(l -> l.contains("\"type\":\"run\"")))
        .hasSize(2).allSatisfy(l -> assertThat(l).contains("\"prior\":1.0E-4"));
    secpe(journal).budget(dev.secpe.accounting.SecretBudget.ofRatio(1e-3, 10)).build().run();
    assertThat(journal.history(SecretFreeSplitTest.onlySpamHoldsSecrets(40)).priors()).containsExactly(1e-4, 1e-3);

    PrivacyJournal other = PrivacyJournal.at(dir.resolve("k"));
    run(dir.resolve("k"), null, Fixtures.CountingNoise.secure()).build().run();
    PrivacyJournal.History k = other.history(Fixtures.privateData(100));
    assertThat(k.runs().get(0).prior()).isEmpty();
    assertThat(k.priors()).isEmpty();
  }
}
