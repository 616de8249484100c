package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.BundledCorpus;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code secpe run} stopped by a signal while the in-process MiniLM embeds the private
 * records (issue 13: SIGTERM during embedding crashed the JVM inside ONNX Runtime and left an
 * {@code hs_err_pid*.log}; a killed run left ONNX Runtime's natives in the temporary directory).
 * The child JVM gets its own working directory (where an {@code hs_err} file would land), its own
 * temporary directory and its own native cache.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunSignalTest {

  /** What a stopped child left: its exit code, its stderr and stdout, its working and temp dirs. */
  private record Stopped(int exit, String output, List<String> workFiles, List<String> tmpFiles) {}

  /**
   * Starts {@code secpe run} on 300 long e-mails (several seconds of embedding on this machine
   * kind), waits for the run to start and {@code afterMillis} more, then sends SIGTERM or SIGKILL.
   */
  private static Stopped runAndStop(Path dir, boolean forcibly, long afterMillis) throws Exception {
    return runAndStop(dir, forcibly ? "KILL" : "TERM", afterMillis);
  }

  /** As above with the signal named: TERM, INT or KILL. */
  private static Stopped runAndStop(Path dir, String signal, long afterMillis) throws Exception {
    return runAndStop(dir, signal, afterMillis, "augpe: 2 rounds");
  }

  /**
   * As above, waiting for {@code started} in the child's output before the {@code afterMillis},
   * with {@code extra} options added to the run.
   */
  private static Stopped runAndStop(Path dir, String signal, long afterMillis, String started, String... extra)
      throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<PublicRecord> mails = BundledCorpus.spamAssassin().publicPart().records();
    List<String> priv = new ArrayList<>();
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      (i < 300 ? priv : pub).add(json.createObjectNode().put("text", mails.get(i).text()).toString());
    }
    Path work = Files.createDirectories(dir.resolve("work"));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Path cache = Files.createDirectories(dir.resolve("cache"));
    Files.write(work.resolve("private.jsonl"), priv);
    Files.write(work.resolve("public.jsonl"), pub);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Djava.io.tmpdir=" + tmp, "-Dsecpe.native.cache=" + cache,
        "-cp", System.getProperty("java.class.path"), SecpeCli.class.getName(),
        "run", "--method", "augpe", "--private", "private.jsonl", "--public", "public.jsonl", "--synthetic-size", "8",
        "--iterations", "2", "--epsilon", "2", "--delta", "1e-5",
        "--out", "synthetic.jsonl", "--report", "report.json", "--journal", dir.resolve("journal").toString()));
    cmd.addAll(List.of(extra));
    Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread pump = new Thread(() -> copy(p.getInputStream(), out), "child-output");
    pump.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    // "augpe: 2 rounds" is printed when the run starts, before the private records are embedded.
    while (!text(out).contains(started) && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(text(out)).as("the child never started its run").contains(started);
    Thread.sleep(afterMillis);
    assertThat(p.isAlive()).as("the run ended before the signal: %s", text(out)).isTrue();
    switch (signal) {
      case "KILL" -> p.destroyForcibly();
      case "TERM" -> p.destroy();
      default -> assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor()).isZero();
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the child did not stop").isTrue();
    pump.join(10_000);
    return new Stopped(p.exitValue(), text(out), FaultRun.names(work), FaultRun.names(tmp));
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    try (in) {
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) {
        synchronized (out) {
          out.write(buf, 0, n);
        }
      }
    } catch (java.io.IOException closed) {
      // the child exited
    }
  }

  private static String text(ByteArrayOutputStream out) {
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  // fault: SIGTERM during the first embedding of the private records (in-process MiniLM)
  // holds: exit 143, no `hs_err` file, no output written, the temporary directory empty; the last checkpoint (here none: nothing was drawn) stays resumable. A signal handler closes the embedder, waiting for the batch in flight, before the JVM shuts down, so ONNX Runtime's own shutdown hook (which releases its environment) never runs under a `minilm-embed-N` thread (before: on some machines SIGSEGV, exit 134 and an `hs_err_pid*.log`; `MiniLmEmbedderTest` crashed the test JVM before the embedder waited for its batch)
  @Test
  void sigtermWhileEmbeddingExitsCleanlyWithoutACrashLog(@TempDir Path dir) throws Exception {
    Stopped s = runAndStop(dir, false, 1500);
    assertThat(s.output()).as("child output").doesNotContain("SIGSEGV").doesNotContain("A fatal error");
    assertThat(s.exit()).as("exit code after SIGTERM; output: %s", s.output()).isEqualTo(143);
    assertThat(s.workFiles()).as("working directory").noneMatch(n -> n.startsWith("hs_err"))
        .doesNotContain("synthetic.jsonl", "report.json");
    assertThat(s.tmpFiles()).as("temporary directory").isEmpty();
  }

  // fault: a run ended by SIGTERM journalled no `end` line, so `secpe privacy spent` showed it as unfinished; SIGTERM while the run probed its generator and embedder printed a probe failure
  // holds: the signal cancels the run and waits (up to 30 s) for it to journal its end: `privacy spent` shows it "cancelled", and the exit code stays 143; a signal during the probe says "cancelled by SIGTERM", never that a provider failed its probe
  @Test
  void sigtermJournalsTheRunAsCancelledAndAProbeAsCancelled(@TempDir Path dir) throws Exception {
    Stopped s = runAndStop(dir, false, 1500);
    assertThat(s.exit()).as("exit code after SIGTERM; output: %s", s.output()).isEqualTo(143);
    CliRun.Outcome spent = CliRun.execute("privacy", "spent",
        "--private", dir.resolve("work").resolve("private.jsonl").toString(),
            "--journal", dir.resolve("journal").toString());
    assertThat(spent.code()).isZero();
    com.fasterxml.jackson.databind.JsonNode runs = spent.json().path("runs");
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).path("status").asText()).as(s.output()).isEqualTo("cancelled");

    // The embedder never answers the probe (a stalled remote one): SIGTERM while the run waits for it.
    Path probe = Files.createDirectories(dir.resolve("probe"));
    Stopped p = runAndStop(probe, "TERM", 1000, "generator: ", "--embedder", "test-blocking-embedder");
    assertThat(p.exit()).as("exit code after SIGTERM; output: %s", p.output()).isEqualTo(143);
    assertThat(p.output()).doesNotContain("failed a probe").doesNotContain("error:");
  }

  // fault: SIGINT (Ctrl-C) during the first embedding of the private records
  // holds: exit 130, no `hs_err` file, no output, the temporary directory empty: the embedder is closed (waiting for its batch) before the JVM shuts down, so ONNX Runtime's own shutdown hook, which releases its environment, no longer runs under a `minilm-embed-N` thread
  @Test
  @org.junit.jupiter.api.Tag("slow") // a second child embedding 300 e-mails (about 20 s); SIGTERM's case runs always
  void sigintWhileEmbeddingExitsWith130WithoutACrashLog(@TempDir Path dir) throws Exception {
    assumeTrue(!ignores(2), "SIGINT is ignored in this test's environment (a background job): the child inherits it");
    Stopped s = runAndStop(dir, "INT", 300);
    assertThat(s.output()).as("child output").doesNotContain("SIGSEGV").doesNotContain("A fatal error");
    assertThat(s.exit()).as("exit code after SIGINT; output: %s", s.output()).isEqualTo(130);
    assertThat(s.workFiles()).noneMatch(n -> n.startsWith("hs_err")).doesNotContain("synthetic.jsonl", "report.json");
    assertThat(s.tmpFiles()).as("temporary directory").isEmpty();
  }

  /** Whether this process ignores signal {@code n} (its children inherit that). */
  private static boolean ignores(int n) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << (n - 1))) != 0;
      }
    }
    return false;
  }

  // fault: native libraries left in the temporary directory: an empty `onnxruntime-java*` directory after every run, 16 MB of ONNX Runtime and 69 MB of OR-Tools after `kill -9`
  // holds: ONNX Runtime's and OR-Tools' libraries are extracted once to `~/.cache/secpe/native` (`$XDG_CACHE_HOME`, or the `secpe.native.cache` property), each copy checked against its jar entry's size and CRC-32 and renamed into place, verified by SHA-256 on every start and replaced when damaged; a JVM that embeds, or that solves an LP with OR-Tools and is then killed with `kill -9`, leaves its temporary directory empty (also `OrtNativesTest`, `OrToolsNativesTest`, `NativeCacheTest`); where the cache cannot be written, each library's own loader runs as before
  @Test
  void sigkillWhileEmbeddingLeavesNothingInTheTemporaryDirectory(@TempDir Path dir) throws Exception {
    Stopped s = runAndStop(dir, true, 1500);
    assertThat(s.exit()).isEqualTo(137);
    assertThat(s.tmpFiles()).as("temporary directory").isEmpty();
    assertThat(s.workFiles()).noneMatch(n -> n.startsWith("hs_err"));
  }
}
