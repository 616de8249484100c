package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.BundledCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kill -9} of a real {@code secpe run} at a random moment (seeded), then {@code --resume}:
 * the synthetic file is byte for byte the uninterrupted run's, and the report (but its timings)
 * and the ledger in it are the same, for every method. The kill may land anywhere: before the
 * first checkpoint (then the run is started afresh), while a checkpoint or an output is written,
 * or after the run finished. Where the in-process {@code KillAndResumeTest} (evolution) throws at
 * each event, this one stops a JVM without warning, as a power cut or the OOM killer would.
 */
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunKillNineTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Map<String, List<String>> METHOD_ARGS = Map.of(
      "secpe", List.of("--iterations", "3", "--p", "1e-4", "--r", "1e-3", "--clusters", "6"),
      "augpe", List.of("--iterations", "3", "--epsilon", "2", "--delta", "1e-5"),
      "dpga", List.of("--iterations", "3", "--epsilon", "1", "--delta", "1e-5"),
      "ctcl", List.of("--epsilon", "1", "--delta", "1e-3", "--topics", "4", "--steps", "40", "--batch-size", "15"));

  private static void writeData(Path dir) throws Exception {
    // The bundled corpus's public e-mails stand in for both files (its private part cannot be read back as text).
    List<PublicRecord> mails = BundledCorpus.spamAssassin().publicPart().records();
    List<String> priv = new ArrayList<>();
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 160; i++) {
      (i < 80 ? priv : pub).add(JSON.createObjectNode().put("text", mails.get(i).text()).toString());
    }
    Files.write(dir.resolve("private.jsonl"), priv);
    Files.write(dir.resolve("public.jsonl"), pub);
  }

  private static List<String> args(String method, Path data, Path run, boolean resume) {
    List<String> a = new ArrayList<>(List.of("run", "--method", method,
        "--private", data.resolve("private.jsonl").toString(), "--public", data.resolve("public.jsonl").toString(),
        "--synthetic-size", "8", "--embedder", "test-hash-embedder", "--seed", "3", "--reproducible-noise", "5",
        "--quiet", "--checkpoint", run.resolve("cp").toString(), "--journal", data.resolve("journal").toString(),
        "--out", run.resolve("synthetic.jsonl").toString(), "--report", run.resolve("report.json").toString()));
    a.addAll(METHOD_ARGS.get(method));
    if (resume) {
      a.add("--resume");
    }
    return a;
  }

  private static void runInProcess(List<String> args) {
    CliRun.Outcome o = CliRun.execute(args);
    assertThat(o.code()).as("%s: %s", args, o.err()).isZero();
  }

  /**
   * Runs {@code secpe} in a child JVM and kills it with SIGKILL {@code extraMillis} after its
   * checkpoint file was (re)written for the {@code writes}-th time, or when it ends by itself.
   */
  private static void killAfterWrites(List<String> args, Path checkpoint, int writes, long extraMillis) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), SecpeCli.class.getName()));
    cmd.addAll(args);
    Object before = fileKey(checkpoint);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    int seen = 0;
    Object last = before;
    while (p.isAlive() && seen < writes) {
      Object now = fileKey(checkpoint); // every write renames a new file over the old one
      if (now != null && !now.equals(last)) {
        seen++;
        last = now;
      }
      Thread.sleep(2);
    }
    if (!p.waitFor(extraMillis, TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static Object fileKey(Path f) {
    try {
      java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class);
      return a.fileKey() != null ? a.fileKey() : a.lastModifiedTime() + "/" + a.size();
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** A resumed run: with --resume where a checkpoint was written, afresh where none was. */
  private static List<String> next(String method, Path data, Path run) {
    return args(method, data, run, Files.isRegularFile(run.resolve("cp").resolve("checkpoint.json")));
  }

  // fault: run killed at any point and resumed with `--resume` / `resume(true)` (SecPE, Aug-PE, DPGA, CTCL): after a release is charged and before its noise is drawn, after a round's votes are drawn and before the round's checkpoint, at a round boundary, during generation or fine-tuning; by a thrown fault, `cancel()` or `kill -9`, once or twice
  // holds: every release already drawn is served from the checkpoint (or, under a privacy journal, from the journal where the checkpoint had not caught up) and none is charged twice; with the same seed and reproducible noise the output (byte for byte from `bin/secpe run`), the report but its timings, the ledger and every round's noisy votes equal the uninterrupted run's; a run killed before its first checkpoint kept nothing and starts afresh (also `KillAndResumeTest`: every event of SecPE and Aug-PE, chosen points of DPGA and CTCL; `ResumeTest`, `CTCLTest`)
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"secpe", "augpe", "dpga", "ctcl"})
  void killNineAtARandomMomentThenResumeIsTheUninterruptedRun(String method, @TempDir Path dir) throws Exception {
    writeData(dir);
    Path whole = Files.createDirectory(dir.resolve("whole"));
    long t0 = System.nanoTime();
    runInProcess(args(method, dir, whole, false));
    long millis = (System.nanoTime() - t0) / 1_000_000;

    // Killed once (Aug-PE, the quickest, twice) at a seeded random moment: 0 to 150 ms after the
    // checkpoint was written for the 1st to 4th time (a run writes it after each release and round;
    // CTCL: 1st or 2nd, during its fine-tuning or generation).
    Random rng = new Random(method.hashCode());
    Path killed = Files.createDirectory(dir.resolve("killed"));
    List<String> delays = new ArrayList<>();
    for (int k = 0; k < (method.equals("augpe") ? 2 : 1); k++) {
      int writes = 1 + rng.nextInt(method.equals("ctcl") ? 2 : 4); // CTCL writes 3 times in all
      long extra = rng.nextInt(150);
      killAfterWrites(next(method, dir, killed), killed.resolve("cp").resolve("checkpoint.json"), writes, extra);
      delays.add(extra + " ms after write " + writes + " (" + state(killed) + ")");
    }
    System.out.println(method + " killed " + delays);
    runInProcess(next(method, dir, killed));

    String what = method + " killed " + delays + " (uninterrupted in-process run: " + millis + " ms)";
    assertThat(Files.mismatch(killed.resolve("synthetic.jsonl"), whole.resolve("synthetic.jsonl")))
        .as("%s: synthetic.jsonl differs at byte", what).isEqualTo(-1L);
    JsonNode killedReport = JSON.readTree(killed.resolve("report.json").toFile());
    JsonNode a = comparable(killedReport);
    JsonNode b = comparable(JSON.readTree(whole.resolve("report.json").toFile()));
    assertThat(a.get("mechanisms")).as("%s: ledger", what).isEqualTo(b.get("mechanisms"));
    assertThat(a).as("%s: report", what).isEqualTo(b);
    // Both runs journal the one dataset: the uninterrupted run's releases, then the killed and
    // resumed runs' together, each charged once.
    assertThat(killedReport.path("journal").path("spent").path("releases").asInt())
        .as("%s: releases journalled for the dataset", what)
        .isEqualTo(2 * killedReport.path("mechanisms").size());
  }

  /** Where the killed run got to: its checkpoint's round, whether it wrote its output, what it left. */
  private static String state(Path run) throws Exception {
    Path cp = run.resolve("cp").resolve("checkpoint.json");
    String round = Files.isRegularFile(cp) ? "checkpoint at round " + JSON.readTree(cp.toFile()).get("round") : "no checkpoint";
    List<String> files = new ArrayList<>();
    try (java.util.stream.Stream<Path> s = Files.walk(run)) {
      s.filter(Files::isRegularFile).forEach(f -> files.add(run.relativize(f).toString()));
    }
    return round + ", files " + files;
  }

  /**
   * The report without its timings, embedding counts, the sentence that says it was resumed and the
   * dataset's journal totals (which count every run on the dataset, this one's twin included).
   */
  private static JsonNode comparable(JsonNode report) {
    ObjectNode r = report.deepCopy();
    r.remove("timing");
    r.remove("embedding");
    r.remove("journal");
    ArrayNode deviations = JSON.createArrayNode();
    r.withArray("deviations").forEach(d -> {
      if (!d.asText().startsWith("Resumed from round")) {
        deviations.add(d);
      }
    });
    r.set("deviations", deviations);
    return r;
  }
}
