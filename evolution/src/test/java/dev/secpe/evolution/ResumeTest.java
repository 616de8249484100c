package dev.secpe.evolution;

import dev.secpe.evolution.persist.Checkpoint;
import dev.secpe.evolution.persist.CheckpointStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run killed mid-round and resumed never draws a release twice. */
class ResumeTest {

  private static AugPE.Builder augpe(Path dir, Fixtures.CountingNoise noise) {
    return Fixtures.augpe(noise).checkpoint(dir);
  }

  @Test
  void killedAfterAVoteAndResumedReusesEveryReleaseAlreadyDrawn(@TempDir Path dir) throws Exception {
    // First run: cancelled right after round 2's vote and selection, before its generation.
    AtomicReference<AugPE> first = new AtomicReference<>();
    Fixtures.CountingNoise noise1 = new Fixtures.CountingNoise(1);
    first.set(
        augpe(dir, noise1)
            .listener(
                e -> {
                  if (e instanceof RunEvent.PhaseFinished p && p.round() == 2 && p.phase() == Phase.SELECTION) {
                    first.get().cancel();
                  }
                })
            .build());
    assertThatThrownBy(() -> first.get().run()).isInstanceOf(CancellationException.class);
    // The checkpoint directory holds the files the builder names (bin/secpe checks the room for them).
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString()).toList())
          .contains("checkpoint.json")
          .allMatch(EvolutionBuilder.CHECKPOINT_FILES::contains);
    }
    CheckpointStore store = new CheckpointStore(dir);
    Checkpoint killed = store.read();
    assertThat(killed.round()).isEqualTo(2);
    assertThat(killed.values().keySet())
        .containsExactly("augpe/labels", "augpe/round-0/votes", "augpe/round-1/votes", "augpe/round-2/votes");

    // Resume with a fresh noise source: only round 3's vote may be drawn.
    Fixtures.CountingNoise noise2 = new Fixtures.CountingNoise(2);
    RunResult resumed = augpe(dir, noise2).resume(true).build().run();
    Checkpoint done = store.read();
    for (Map.Entry<String, double[]> e : killed.values().entrySet()) {
      assertThat(done.values().get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
    }
    int newDraws = done.values().get("augpe/round-3/votes").length;
    assertThat(noise2.draws.get()).isEqualTo(newDraws);
    List<String> ids = resumed.report().mechanisms().stream().map(Release::id).toList();
    assertThat(ids)
        .containsExactly(
            "augpe/labels", "augpe/round-0/votes", "augpe/round-1/votes", "augpe/round-2/votes", "augpe/round-3/votes");
    assertThat(resumed.report().mechanisms().subList(0, 4)).isEqualTo(killed.releases());
    assertThat(resumed.report().deviations()).anyMatch(d -> d.contains("none drawn twice"));
  }

  // fault: fresh run where a checkpoint exists
  // holds: refused: "already exists"
  @Test
  void aFreshRunRefusesToOverwriteACheckpoint(@TempDir Path dir) {
    augpe(dir, new Fixtures.CountingNoise(1)).iterations(1).build().run();
    assertThatThrownBy(() -> augpe(dir, new Fixtures.CountingNoise(1)).iterations(1).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already exists");
  }

  @Test
  void resumingWithAnotherVoteGeometryIsRefused(@TempDir Path dir) {
    augpe(dir, new Fixtures.CountingNoise(1)).iterations(1).voteGeometry(VoteGeometry.COSINE).build().run();
    assertThatThrownBy(() -> augpe(dir, new Fixtures.CountingNoise(1)).iterations(1).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("different configuration");
  }

  @Test
  void resumingWithAnotherConfigurationIsRefused(@TempDir Path dir) {
    augpe(dir, new Fixtures.CountingNoise(1)).iterations(1).build().run();
    assertThatThrownBy(
            () -> augpe(dir, new Fixtures.CountingNoise(1)).iterations(1).syntheticSize(17).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("different configuration");
  }

  @Test
  void resumeWithoutACheckpointIsRefused(@TempDir Path dir) {
    assertThatThrownBy(() -> augpe(dir.resolve("none"), new Fixtures.CountingNoise(1)).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no checkpoint exists");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1})
  void dpgaKilledAfterAnyRoundResumesAsTheSameRun(int killAfter, @TempDir Path dir) {
    // DPGA's per-round votes are covered by its one up-front subsample release: before, a resume
    // was refused ("has values but is not on the ledger") and the spent budget was stranded.
    AtomicReference<DPGA> first = new AtomicReference<>();
    Fixtures.CountingNoise noise1 = new Fixtures.CountingNoise(1);
    first.set(
        dpga(dir, noise1)
            .listener(
                e -> {
                  if (e instanceof RunEvent.PhaseFinished p && p.round() == killAfter && p.phase() == Phase.SELECTION) {
                    first.get().cancel();
                  }
                })
            .build());
    assertThatThrownBy(() -> first.get().run()).isInstanceOf(CancellationException.class);
    Checkpoint killed = new CheckpointStore(dir).read();

    RunResult resumed = dpga(dir, new Fixtures.CountingNoise(2)).resume(true).build().run();
    RunResult whole = dpga(dir.resolve("whole"), new Fixtures.CountingNoise(1)).build().run();
    // Every release drawn before the kill is served again, bit for bit, and none is charged twice.
    Checkpoint done = new CheckpointStore(dir).read();
    for (Map.Entry<String, double[]> e : killed.values().entrySet()) {
      assertThat(done.values().get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
    }
    assertThat(resumed.report().mechanisms()).isEqualTo(whole.report().mechanisms());
    assertThat(resumed.dataset().size()).isEqualTo(whole.dataset().size());
    // A resume of the finished run draws nothing.
    Fixtures.CountingNoise noise3 = new Fixtures.CountingNoise(3);
    dpga(dir, noise3).resume(true).build().run();
    assertThat(noise3.draws.get()).isZero();
  }

  private static DPGA.Builder dpga(Path dir, Fixtures.CountingNoise noise) {
    return DPGA.builder()
        .privateData(Fixtures.privateData(100))
        .publicData(Fixtures.publicData(50))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .budget(new DpBudget(4.0, 1e-5))
        .syntheticSize(12)
        .iterations(3)
        .tauSample(60)
        .seed(9)
        .checkpoint(dir)
        .noise(noise);
  }

  // fault: checkpoint edited (round 99, a noisy value, emptied `releases` and `values`), truncated, or with a flipped bit (its digest not recomputed)
  // holds: refused before any noise is drawn: "fails its integrity check" / "is damaged"; an edit with the digest recomputed is caught by the privacy journal instead (`RunJournalTest`) (before: an edited round gave an empty output and emptied releases an epsilon of 0.756 for a budget of 1)
  @Test
  void anEditedOrTruncatedCheckpointIsRefusedAndNothingIsDrawn(@TempDir Path dir) throws Exception {
    augpe(dir, new Fixtures.CountingNoise(1)).iterations(2).build().run();
    Path file = dir.resolve(CheckpointStore.FILE);
    String original = java.nio.file.Files.readString(file);
    // An edited round (the "round: 99"), and edited noisy values.
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode edited =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(original);
    edited.put("round", 99);
    java.nio.file.Files.writeString(file, json.writeValueAsString(edited));
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(2);
    assertThatThrownBy(() -> augpe(dir, noise).iterations(2).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fails its integrity check");
    java.nio.file.Files.writeString(file, original.replaceFirst("\\[(-?[0-9])", "[7$1"));
    assertThatThrownBy(() -> augpe(dir, noise).iterations(2).resume(true).build().run())
        .hasMessageContaining("fails its integrity check");
    java.nio.file.Files.writeString(file, original.substring(0, original.length() / 2));
    assertThatThrownBy(() -> augpe(dir, noise).iterations(2).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is damaged");
    // The emptied releases and values (before: epsilon 0.756 reported for a budget of 1,
    // and the label histogram drawn again).
    com.fasterxml.jackson.databind.node.ObjectNode emptied =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(original);
    assertThat(emptied.has("releases") && emptied.has("values")).as("checkpoint keys").isTrue();
    emptied.set("releases", emptied.get("releases").isArray() ? json.createArrayNode() : json.createObjectNode());
    emptied.set("values", emptied.get("values").isArray() ? json.createArrayNode() : json.createObjectNode());
    java.nio.file.Files.writeString(file, json.writeValueAsString(emptied));
    assertThatThrownBy(() -> augpe(dir, noise).iterations(2).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fails its integrity check");
    // One flipped bit anywhere: unreadable, or readable and caught by the digest.
    for (int at : new int[] {original.length() / 3, original.length() / 2, 2 * original.length() / 3}) {
      char[] flipped = original.toCharArray();
      flipped[at] ^= 1;
      java.nio.file.Files.writeString(file, new String(flipped));
      assertThatThrownBy(() -> augpe(dir, noise).iterations(2).resume(true).build().run())
          .as("bit flipped at %d", at)
          .isInstanceOf(IllegalStateException.class)
          .satisfiesAnyOf(
              e -> assertThat(e).hasMessageContaining("fails its integrity check"),
              e -> assertThat(e).hasMessageContaining("is damaged"));
    }
    assertThat(noise.draws.get()).isZero();
  }

  // fault: resume with other private (or public) records
  // holds: refused before anything is drawn or written: "written for other input records … refusing to resume"; the checkpoint and the earlier output stay as they were, and the same inputs still resume (also `RunResumeInputsTest` through `bin/secpe run --resume`)
  @Test
  void aResumeWithOtherPrivateRecordsIsRefused(@TempDir Path dir) {
    augpe(dir, new Fixtures.CountingNoise(1)).iterations(2).build().run();
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(2);
    assertThatThrownBy(
            () -> augpe(dir, noise).iterations(2).privateData(Fixtures.privateData(60)).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("other input records");
    assertThat(noise.draws.get()).isZero();
  }

  private static final List<String> TERMS_A = List.of("alphaword", "bravoword", "charlieword");
  private static final List<String> TERMS_B = List.of("alphaword", "bravoword", "deltaword");

  /** SecPE over records holding the terms of both sets, with the dictionary of {@code terms}. */
  private static SecPE.Builder secpe(Path dir, List<String> terms, Fixtures.CountingNoise noise) {
    List<dev.secpe.core.PrivateRecord> records = new java.util.ArrayList<>();
    records.add(dev.secpe.core.PrivateRecord.of("a", "meeting notes alphaword and bravoword for the team"));
    records.add(dev.secpe.core.PrivateRecord.of("c", "charlieword shipment is delayed again"));
    records.add(dev.secpe.core.PrivateRecord.of("d", "deltaword in the contract draft, see deltaword"));
    for (int i = 0; i < 60; i++) {
      records.add(dev.secpe.core.PrivateRecord.of("p" + i, "routine message " + i + " about the weekly schedule"));
    }
    return SecPE.builder()
        .privateData(dev.secpe.core.PrivateDataset.of(records))
        .publicData(Fixtures.publicData(60))
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(8)
        .iterations(1)
        .clusters(4)
        .seed(3)
        .budget(new dev.secpe.accounting.SecretBudget(1e-4, 1e-3))
        .secrets(dev.secpe.core.secret.DictionaryDetector.of(terms))
        .checkpoint(dir)
        .noise(noise);
  }

  /** Rewrites a checkpoint file with {@code edit} applied and its integrity digest recomputed, as anyone can. */
  private static void forge(Path dir, java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit)
      throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    Path file = dir.resolve(CheckpointStore.FILE);
    com.fasterxml.jackson.databind.node.ObjectNode root =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(file.toFile());
    root.remove("integrity");
    edit.accept(root);
    root.put("integrity", java.util.HexFormat.of().formatHex(
        java.security.MessageDigest.getInstance("SHA-256").digest(json.writeValueAsBytes(root))));
    Files.write(file, json.writeValueAsBytes(root));
  }

  // fault: SecPE resumed with another dictionary of as many terms, whose display name is the same (the checkpoint compared the name)
  // holds: refused before any noise is drawn: "the secret detector's configuration changed (its terms, patterns or options …)"; a SecPE checkpoint written before checkpoints recorded the detector is refused ("cannot show"); under a journal, a checkpoint forged to name the new detector is refused by the journal's record of the lineage; the same detector resumes (before: the resume was accepted and served the releases of the other terms)
  @Test
  void aSecPeResumeWithAnotherDetectorIsRefused(@TempDir Path dir) throws Exception {
    var a = dev.secpe.core.secret.DictionaryDetector.of(TERMS_A);
    var b = dev.secpe.core.secret.DictionaryDetector.of(TERMS_B);
    assertThat(b.name()).as("the name the checkpoint used to compare").isEqualTo(a.name());
    Path plain = dir.resolve("plain");
    secpe(plain, TERMS_A, new Fixtures.CountingNoise(1)).build().run();
    assertThat(new CheckpointStore(plain).read().detector()).isEqualTo(dev.secpe.core.secret.SecretDetectors.digest(a));
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(2);
    assertThatThrownBy(() -> secpe(plain, TERMS_B, noise).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the secret detector's configuration changed (its terms, patterns or options")
        .hasMessageContaining("nothing was drawn")
        .hasMessageNotContaining("deltaword").hasMessageNotContaining("sha256:");
    assertThat(noise.draws.get()).isZero();
    secpe(plain, TERMS_A, noise).resume(true).build().run();
    assertThat(noise.draws.get()).as("the finished run resumed draws nothing").isZero();

    // A checkpoint written before checkpoints named their detector cannot show which one it was.
    forge(plain, root -> root.remove("detector"));
    assertThatThrownBy(() -> secpe(plain, TERMS_A, noise).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot show that this run's detector is that one");

    // Under a journal, whose run entries name the detector too: a checkpoint forged to name B's.
    Path journalled = dir.resolve("journalled");
    PrivacyJournal journal = PrivacyJournal.at(dir.resolve("journal"));
    secpe(journalled, TERMS_A, new Fixtures.CountingNoise(1)).journal(journal).build().run();
    forge(journalled, root -> root.put("detector", dev.secpe.core.secret.SecretDetectors.digest(b)));
    assertThatThrownBy(() -> secpe(journalled, TERMS_B, noise).journal(journal).resume(true).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the secret detector's configuration changed");
    assertThat(noise.draws.get()).isZero();
  }

  @Test
  void withReproducibleNoiseAKilledAndResumedRunEqualsTheUninterruptedOne(@TempDir Path dir) {
    // The case: Aug-PE, seed 11, reproducible noise 5, killed after round 1. Before, the
    // resumed run drew round 2 and 3 from a fresh stream and differed from round 2's votes on.
    AtomicReference<AugPE> first = new AtomicReference<>();
    first.set(
        augpe(dir.resolve("killed"), null)
            .noise(dev.secpe.accounting.noise.NoiseSources.reproducibleForTests(5))
            .listener(
                e -> {
                  if (e instanceof RunEvent.PhaseFinished p && p.round() == 1 && p.phase() == Phase.SELECTION) {
                    first.get().cancel();
                  }
                })
            .build());
    assertThatThrownBy(() -> first.get().run()).isInstanceOf(CancellationException.class);
    RunResult resumed =
        augpe(dir.resolve("killed"), null)
            .noise(dev.secpe.accounting.noise.NoiseSources.reproducibleForTests(5))
            .resume(true)
            .build()
            .run();
    RunResult whole =
        augpe(dir.resolve("whole"), null)
            .noise(dev.secpe.accounting.noise.NoiseSources.reproducibleForTests(5))
            .build()
            .run();
    assertThat(resumed.dataset().records().stream().map(t -> t.text()).toList())
        .isEqualTo(whole.dataset().records().stream().map(t -> t.text()).toList());
    Map<String, double[]> a = new CheckpointStore(dir.resolve("killed")).read().values();
    Map<String, double[]> b = new CheckpointStore(dir.resolve("whole")).read().values();
    assertThat(a.keySet()).isEqualTo(b.keySet());
    for (String id : a.keySet()) {
      assertThat(a.get(id)).as(id).containsExactly(b.get(id));
    }
  }
}
