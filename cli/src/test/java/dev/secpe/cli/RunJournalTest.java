package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.evolution.persist.CheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code secpe run} under its privacy journal (issue 32): a second run on the same dataset or
 * checkpoint is refused while the first runs, and a checkpoint rolled back, forged or taken from
 * another dataset is refused before anything is drawn. Before the journal, each of these runs
 * exited 0 and drew its releases again (the sweep).
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunJournalTest {

  // fault: two `secpe run` processes started at once on one dataset (or one `--checkpoint` directory, with or without `--resume`)
  // holds: the second waits `--journal-wait` (default 0 s), then exits 2 naming the run that holds the dataset's journal, before it draws anything; the journal holds the first run's releases once (before: both exited 0, each charged every release)
  @Test
  void aSecondRunWhileTheFirstHoldsTheDatasetIsRefusedAndTheBudgetIsSpentOnce(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    // The first run is a real process, frozen (SIGSTOP) once it has journalled its start, so that
    // it holds its locks for as long as the second run needs, whatever the machine's speed.
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), SecpeCli.class.getName()));
    cmd.addAll(f.args("--checkpoint", dir.resolve("ck").toString(),
        "--out", dir.resolve("a.jsonl").toString(), "--report", dir.resolve("a.json").toString()));
    Process first = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("first.log").toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (first.isAlive() && f.runs() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      signal("STOP", first);
      assertThat(f.runs()).as("the first run started: %s", Files.readString(dir.resolve("first.log"))).isEqualTo(1);
      CliRun.Outcome sameCheckpoint = f.run("--checkpoint", dir.resolve("ck").toString(), "--resume");
      CliRun.Outcome sameData = f.run("--checkpoint", dir.resolve("ck2").toString());
      assertThat(sameCheckpoint.code()).as(sameCheckpoint.err()).isEqualTo(2);
      assertThat(sameCheckpoint.err()).contains("another run is using the checkpoint directory");
      assertThat(sameData.code()).as(sameData.err()).isEqualTo(2);
      assertThat(sameData.err()).contains("another run is using the privacy journal of this dataset").contains("pid " + first.pid());
    } finally {
      signal("CONT", first);
      assertThat(first.waitFor(180, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(first.exitValue()).as(Files.readString(dir.resolve("first.log"))).isZero();
    JsonNode report = FaultRun.JSON.readTree(dir.resolve("a.json").toFile());
    List<String> ran = new ArrayList<>();
    report.path("mechanisms").forEach(m -> ran.add(m.path("id").asText()));
    assertThat(f.charged()).isEqualTo(ran);
    assertThat(f.runs()).isEqualTo(1);
  }

  private static void signal(String name, Process p) throws Exception {
    if (p.isAlive()) {
      assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start().waitFor()).isZero();
    }
  }

  // fault: an older checkpoint put back over the newest one (the round-1 file copied over round 2's), then `--resume`
  // holds: exit 2 before anything is drawn: "is an older checkpoint of its run … restore the newest checkpoint"; the journal holds no new release (before: exit 0, round 1's and round 2's votes charged and drawn again, the report said "none drawn twice")
  @Test
  void aRolledBackCheckpointIsRefusedAndDrawsNothing(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    Path file = dir.resolve("ck").resolve(CheckpointStore.FILE);
    // Copies the first checkpoint the run writes while it runs on.
    AtomicReference<byte[]> early = new AtomicReference<>();
    CompletableFuture<CliRun.Outcome> run = CompletableFuture.supplyAsync(
        () -> f.run("--checkpoint", dir.resolve("ck").toString(), "--iterations", "3"));
    while (!run.isDone() && early.get() == null) {
      try {
        if (Files.size(file) > 0) {
          early.set(Files.readAllBytes(file));
        }
      } catch (java.io.IOException notYet) {
        Thread.sleep(1);
      }
    }
    assertThat(run.get(120, TimeUnit.SECONDS).code()).isZero();
    assertThat(early.get()).as("a checkpoint seen while the run was going").isNotNull();
    assertThat(early.get()).isNotEqualTo(Files.readAllBytes(file));
    List<String> before = f.charged();
    Files.write(file, early.get());
    CliRun.Outcome resumed = f.run("--checkpoint", dir.resolve("ck").toString(), "--iterations", "3", "--resume");
    assertThat(resumed.code()).as(resumed.err()).isEqualTo(2);
    assertThat(resumed.err()).contains("older checkpoint of its run").contains("nothing was drawn");
    assertThat(f.charged()).isEqualTo(before);
  }

  // fault: checkpoint edited and its plain SHA-256 recomputed: a noisy vote changed, `releases` and `values` emptied, or another dataset's checkpoint with its input digest swapped
  // holds: exit 2 before anything is drawn ("disagrees with the privacy journal", "rolled back or replaced", "a run this dataset's privacy journal … has never seen"); the untouched checkpoint still resumes (before: the edited vote and the foreign checkpoint were accepted, the emptied one drew rounds 1–2 again)
  @Test
  void aForgedOrForeignCheckpointIsRefusedAndDrawsNothing(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run("--checkpoint", dir.resolve("ck").toString()).code()).isZero();
    Path file = dir.resolve("ck").resolve(CheckpointStore.FILE);
    byte[] original = Files.readAllBytes(file);
    List<String> charged = f.charged();

    ObjectNode edited = (ObjectNode) FaultRun.JSON.readTree(original);
    ArrayNode votes = (ArrayNode) edited.get("values").get("augpe/round-1/votes");
    votes.set(0, votes.get(0).asDouble() + 100);
    forge(file, edited);
    CliRun.Outcome o = f.run("--checkpoint", dir.resolve("ck").toString(), "--resume");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("disagrees with the privacy journal").contains("differ from those drawn");

    ObjectNode emptied = (ObjectNode) FaultRun.JSON.readTree(original);
    emptied.putArray("releases");
    emptied.putObject("values");
    forge(file, emptied);
    o = f.run("--checkpoint", dir.resolve("ck").toString(), "--resume");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("rolled back or replaced").contains("nothing was drawn");

    // Another dataset's run and checkpoint, its input digest swapped for this one's.
    FaultRun other = new FaultRun(Files.createDirectory(dir.resolve("other")));
    Files.write(other.privateFile, Files.readAllLines(other.privateFile).subList(0, 30));
    assertThat(CliRun.execute(other.args("--journal", f.journal.toString(), "--checkpoint", dir.resolve("ck2").toString()))
        .code()).isZero();
    ObjectNode foreign = (ObjectNode) FaultRun.JSON.readTree(dir.resolve("ck2").resolve(CheckpointStore.FILE).toFile());
    foreign.put("inputs", FaultRun.JSON.readTree(original).get("inputs").asText());
    forge(file, foreign);
    o = f.run("--checkpoint", dir.resolve("ck").toString(), "--resume");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("a run this dataset's privacy journal").contains("never seen");

    assertThat(f.charged()).isEqualTo(charged);
    Files.write(file, original);
    assertThat(f.run("--checkpoint", dir.resolve("ck").toString(), "--resume").code()).isZero();
    assertThat(f.charged()).as("the finished run resumed draws nothing").isEqualTo(charged);
  }

  /** Writes {@code root} with its integrity digest recomputed, as anyone can. */
  private static void forge(Path file, ObjectNode root) throws Exception {
    root.remove("integrity");
    root.put("integrity", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(FaultRun.JSON.writeValueAsBytes(root))));
    Files.write(file, FaultRun.JSON.writeValueAsBytes(root));
  }

  // fault: a run's report read alone, with no word of what the dataset had spent before it
  // holds: the report's `journal` names the journal directory (not the file, whose path holds the dataset key), how many runs the dataset's journal holds and what they have spent together (before: the report named neither, and only `secpe privacy spent` told)
  @Test
  void theReportNamesItsJournalAndWhatEveryRunOnTheDatasetHasSpent(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run("--report", dir.resolve("a.json").toString()).code()).isZero();
    assertThat(f.run("--report", dir.resolve("b.json").toString(), "--out", dir.resolve("b.jsonl").toString()).code())
        .isZero();
    JsonNode a = FaultRun.JSON.readTree(dir.resolve("a.json").toFile());
    JsonNode b = FaultRun.JSON.readTree(dir.resolve("b.json").toFile());
    assertThat(a.path("journal").path("directory").asText()).isEqualTo(f.journal.toString());
    // Not the journal file: its path holds the dataset key, a digest of the private texts.
    String key = f.spent().path("journal").asText();
    assertThat(key).startsWith(f.journal.toString());
    assertThat(Files.readString(dir.resolve("a.json"))).doesNotContain(Path.of(key).getParent().getFileName().toString());
    assertThat(a.path("journal").path("runs").asInt()).isEqualTo(1);
    assertThat(b.path("journal").path("runs").asInt()).isEqualTo(2);
    assertThat(a.path("journal").path("limit").isNull()).isTrue();
    int releases = a.path("mechanisms").size();
    assertThat(a.path("journal").path("spent").path("releases").asInt()).isEqualTo(releases);
    assertThat(b.path("journal").path("spent").path("releases").asInt()).isEqualTo(2 * releases);
    // Aug-PE's releases are Gaussian: mu composes in quadrature, so two equal runs spend sqrt(2) mu.
    double mu = a.path("privacy").path("mu").asDouble();
    assertThat(mu).isPositive();
    assertThat(a.path("journal").path("spent").path("mu").asDouble()).isCloseTo(mu, org.assertj.core.data.Offset.offset(1e-9 * mu));
    assertThat(b.path("journal").path("spent").path("mu").asDouble())
        .isCloseTo(Math.sqrt(2) * mu, org.assertj.core.data.Offset.offset(1e-9 * mu));
    assertThat(b.path("journal").path("spent").path("delta").asDouble()).isEqualTo(1e-5);
    assertThat(b.path("journal").path("spent").path("epsilon").asDouble())
        .isGreaterThan(a.path("privacy").path("epsilon").asDouble());
  }

  // fault: runs past a dataset's lifetime budget (`secpe privacy limit --private FILE --epsilon E --delta D`)
  // holds: a run whose planned releases, composed with every release the journal holds for the dataset, exceed it exits 2 before it draws; `secpe privacy spent --private FILE` lists every run (when, by whom, status) and release with the composed epsilon
  @Test
  void theLifetimeBudgetRefusesTheRunThatWouldPassItAndSpentShowsEveryRun(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run().code()).isZero();
    JsonNode once = f.spent();
    assertThat(once.path("runs")).hasSize(1);
    assertThat(once.path("runs").get(0).path("status").asText()).isEqualTo("finished");
    assertThat(once.path("runs").get(0).path("user").asText()).isNotEmpty();
    assertThat(CliRun.execute("privacy", "limit", "--private", f.privateFile.toString(), "--journal", f.journal.toString(),
        "--epsilon", "2.5", "--delta", "1e-5").code()).isZero();
    CliRun.Outcome refused = f.run("--out", dir.resolve("b.jsonl").toString(), "--report", dir.resolve("b.json").toString());
    assertThat(refused.code()).as(refused.err()).isEqualTo(2);
    assertThat(refused.err()).contains("lifetime budget (epsilon 2.5 at delta 1.0E-5)").contains("nothing was drawn");
    JsonNode after = f.spent();
    assertThat(after.path("limit").path("epsilon").asDouble()).isEqualTo(2.5);
    assertThat(f.charged()).hasSize(once.path("spent").path("releases").asInt());
    // epsilon of Aug-PE's two Gaussian releases at the budget's delta, the run's own: at most 2
    assertThat(after.path("spent").path("epsilon").asDouble()).isLessThanOrEqualTo(2.0 + 1e-9).isGreaterThan(1.9);
  }

  // `privacy spent` prints each release's cost as the journal holds it (type and parameters, by the
  // names of the journal's format): Aug-PE's are Gaussians, and mu-GDP composes them in closed form,
  // mu = sqrt(sum 1 / z_i^2), which must be the spent mu the command prints beside them.
  @Test
  void eachReleaseShowsItsCostAndTheCostsComposeToTheSpentMu(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    CliRun.Outcome run = f.run();
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode spent = f.spent();
    double sumInverseSquares = 0;
    int releases = 0;
    for (JsonNode r : spent.path("runs")) {
      for (JsonNode x : r.path("releases")) {
        JsonNode cost = x.path("cost");
        assertThat(cost.path("type").asText()).as(x.toString()).isEqualTo("gaussian");
        double z = cost.path("noiseMultiplier").asDouble();
        assertThat(z).as(x.toString()).isPositive();
        sumInverseSquares += 1 / (z * z);
        releases++;
      }
    }
    assertThat(releases).isEqualTo(spent.path("spent").path("releases").asInt()).isPositive();
    assertThat(Math.sqrt(sumInverseSquares))
        .isCloseTo(spent.path("spent").path("mu").asDouble(), org.assertj.core.data.Offset.offset(1e-9));
  }
}
