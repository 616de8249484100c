package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, on a small tmpfs mounted for the test (skipped, saying why, where the test cannot
 * mount one: not root, or no mount permission in the container). Before issue 32 the preflight
 * created an empty file, which a full file system allows: the run drew everything and failed
 * writing, and with a checkpoint there the release was charged, a {@code checkpoint.json*.tmp}
 * with the noisy values stayed behind and {@code --resume} said "no checkpoint exists".
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunFullDiskTest {

  /** Mounts a tmpfs of {@code size} at {@code at}, or skips the test with the reason. */
  private static void mount(Path at, String size) throws Exception {
    Files.createDirectories(at);
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
        .redirectErrorStream(true).start();
    String why = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0,
        "cannot mount a tmpfs here (needs root and mount permission): " + why);
  }

  private static void umount(Path at) throws Exception {
    new ProcessBuilder("umount", at.toString()).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
  }

  /** What runs on the mounted file system. */
  private interface OnDisk {
    void run(Path mounted) throws Exception;
  }

  /** Runs {@code body} on a tmpfs of {@code size} mounted at {@code dir/full}, then unmounts it. */
  private static void onTmpfs(Path dir, String size, OnDisk body) throws Exception {
    Path full = dir.resolve("full");
    mount(full, size);
    try {
      body.run(full);
    } finally {
      umount(full);
    }
  }

  /** Fills the file system at {@code dir} to the last byte. */
  private static void fill(Path dir) {
    try (java.io.OutputStream out = Files.newOutputStream(dir.resolve("filler"))) {
      byte[] block = new byte[4096];
      while (true) {
        out.write(block);
      }
    } catch (java.io.IOException full) {
      // no space left: what the test wants
    }
  }

  // fault: disk full where an output, the checkpoint or the journal goes (a full tmpfs)
  // holds: exit 2 before a private record is read, naming the option and the cause ("cannot be written: a test write of … failed (No space left on device)" or "needs about … free"): every output is probed with a real write of its expected size; nothing is journalled and no temporary file stays (before: the empty-file preflight passed, every release was drawn, then "No space left on device")
  @Test
  void aFullDiskIsFoundBeforeAnythingIsDrawn(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    onTmpfs(dir, "256k", full -> {
      fill(full);
      for (String option : List.of("--out", "--report", "--checkpoint", "--journal")) {
        Path at = full.resolve(option.substring(2));
        CliRun.Outcome o = option.equals("--journal")
            ? CliRun.execute(f.args("--journal", at.toString()))
            : f.run(option, at.toString());
        assertThat(o.code()).as("%s: %s", option, o.err()).isEqualTo(2);
        assertThat(o.err()).startsWith("error: " + option + " " + at)
            .containsAnyOf("No space left on device", "free");
      }
      assertThat(f.runs()).isZero();
      assertThat(FaultRun.names(full)).as("nothing left on the full file system").allMatch(n -> n.equals("filler") || n.equals("checkpoint") || n.equals("journal"));
    });
  }

  // fault: the disk fills during a run, after releases were drawn (a checkpoint write fails)
  // holds: exit 2 "cannot write checkpoint … the previous checkpoint is kept"; the drawn values are in the privacy journal and the failed write leaves no temporary file; once there is space, `--resume` continues and every release is charged once: the releases drawn after the last checkpoint come from the journal (before: a `.tmp` with the noisy values stayed, `--resume` said "no checkpoint exists", a new run charged everything again)
  @Test
  void aDiskThatFillsAfterADrawKeepsTheDrawAndResumes(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    onTmpfs(dir, "1m", full -> {
      Path ck = full.resolve("ck");
      CompletableFuture<CliRun.Outcome> run = CompletableFuture.supplyAsync(
          () -> f.run("--checkpoint", ck.toString(), "--iterations", "6"));
      // Fill the disk once the run has drawn (journalled) its first values.
      while (!run.isDone() && !journal(f).contains("\"type\":\"drawn\"")) {
        Thread.sleep(2);
      }
      fill(full);
      CliRun.Outcome failed = run.get(120, TimeUnit.SECONDS);
      assertThat(failed.code()).as("the run should fail writing its checkpoint: %s", failed.err()).isEqualTo(2);
      assertThat(failed.err()).contains("cannot write checkpoint").contains("the previous checkpoint is kept");
      assertThat(FaultRun.names(ck)).containsExactlyInAnyOrder("checkpoint.json", "checkpoint.lock");
      Files.delete(full.resolve("filler"));
      CliRun.Outcome resumed = f.run("--checkpoint", ck.toString(), "--iterations", "6", "--resume");
      assertThat(resumed.code()).as(resumed.err()).isZero();
      JsonNode report = FaultRun.JSON.readTree(dir.resolve("report.json").toFile());
      List<String> ran = new ArrayList<>();
      report.path("mechanisms").forEach(m -> ran.add(m.path("id").asText()));
      assertThat(f.charged()).as("every release charged once").isEqualTo(ran);
    });
  }

  private static String journal(FaultRun f) throws Exception {
    if (!Files.isDirectory(f.journal)) {
      return "";
    }
    try (Stream<Path> s = Files.walk(f.journal)) {
      for (Path p : s.filter(p -> p.getFileName().toString().equals("journal.jsonl")).toList()) {
        return Files.readString(p);
      }
    }
    return "";
  }
}
