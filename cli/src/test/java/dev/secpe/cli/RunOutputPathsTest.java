package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output paths are checked before any private record is read: a collision with an input, two
 * outputs on one file, a directory, a missing parent. Each fails with exit 2 naming the option,
 * and the private file is left as it was.
 */
class RunOutputPathsTest {

  private static final List<String> PRIVATE = List.of(
      "{\"text\": \"please reset my password for the mail server\"}",
      "{\"text\": \"the invoice for march is attached, please confirm\"}");

  /**
   * Aug-PE without --public, so with a generator that learns from none (the default embedded one is
   * refused without --public before any input is read).
   */
  private static CliRun.Outcome run(Path dir, Path out, Path report, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("run", "--method", "augpe", "--generator", "test-fake-generator",
        "--private", dir.resolve("private.jsonl").toString(),
        "--synthetic-size", "2", "--iterations", "1", "--epsilon", "1", "--delta", "1e-5", "--quiet",
        "--out", out.toString(), "--report", report.toString()));
    args.addAll(List.of(extra));
    return CliRun.execute(args);
  }

  // fault: `--out` or `--report` on the private or public file (also through a symbolic link), or on each other
  // holds: exit 2 before anything is read, naming both options; the input is untouched (also `RunOutputPathsTest.theReportCannotOverwriteTheSyntheticData`; hard links and every other input kind: `RunClobberTest`)
  @Test
  void outputOnThePrivateFileIsRefusedAndThePrivateFileKept(@TempDir Path dir) throws Exception {
    Path priv = dir.resolve("private.jsonl");
    Files.write(priv, PRIVATE);
    CliRun.Outcome o = run(dir, priv, dir.resolve("r.json"));
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--out").contains("is the same file as --private");
    assertThat(Files.readAllLines(priv)).isEqualTo(PRIVATE);
    // The same file through a symbolic link counts as the same.
    Path link = dir.resolve("link.jsonl");
    Files.createSymbolicLink(link, priv);
    CliRun.Outcome viaLink = run(dir, dir.resolve("s.jsonl"), link);
    assertThat(viaLink.code()).isEqualTo(2);
    assertThat(viaLink.err()).contains("--report").contains("is the same file as --private");
    assertThat(Files.readAllLines(priv)).isEqualTo(PRIVATE);
  }

  @Test
  void theReportCannotOverwriteTheSyntheticData(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("private.jsonl"), PRIVATE);
    CliRun.Outcome o = run(dir, dir.resolve("same.jsonl"), dir.resolve("same.jsonl"));
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--report").contains("is the same file as --out");
  }

  // fault: `--out`, `--report` or `--checkpoint` a directory (or, for `--checkpoint`, a file), under a missing directory or under a regular file
  // holds: exit 2 naming the option, before any private record is read; a directory where no file can be written (a read-only mount, missing permissions, a full disk) is refused the same way: the check writes and deletes a file of the output's expected size there, since permission bits say nothing for root; /proc and /sys are refused by path (`RunOutputPathsTest.aPseudoFileSystemIsRefusedBeforeThePrivateFileIsReadEvenForRoot`, `RunFullDiskTest`)
  @Test
  void aDirectoryOrAMissingParentFailsBeforeThePrivateFileIsRead(@TempDir Path dir) throws Exception {
    // No private file at all: the output check must come first.
    CliRun.Outcome directory = run(dir, dir, dir.resolve("r.json"));
    assertThat(directory.code()).isEqualTo(2);
    assertThat(directory.err()).contains("--out").contains("is a directory").doesNotContain("private.jsonl");
    CliRun.Outcome missing = run(dir, dir.resolve("no/such/dir/s.jsonl"), dir.resolve("r.json"));
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("--out").contains("does not exist").doesNotContain("private.jsonl");
    Path file = dir.resolve("plain");
    Files.writeString(file, "x");
    CliRun.Outcome underFile = run(dir, file.resolve("s.jsonl"), dir.resolve("r.json"));
    assertThat(underFile.code()).isEqualTo(2);
    assertThat(underFile.err()).contains("--out").contains("does not exist (or is not a directory)");
  }

  /**
   * issue 13: "--out in a read-only pseudo-filesystem: every release is drawn, then internal
   * error". The tests run as root, for whom every directory passes a permission check, and /proc
   * and /sys refuse a new file only when it is created: the check creates one, before the private
   * file is read (none exists here), and leaves nothing behind where it succeeds.
   */
  @Test
  void aPseudoFileSystemIsRefusedBeforeThePrivateFileIsReadEvenForRoot(@TempDir Path dir) throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc")) && Files.isDirectory(Path.of("/sys/kernel")), "Linux /proc and /sys");
    CliRun.Outcome proc = run(dir, Path.of("/proc/secpe-synthetic.jsonl"), dir.resolve("r.json"));
    assertThat(proc.code()).isEqualTo(2);
    assertThat(proc.err()).contains("--out /proc/secpe-synthetic.jsonl is under /proc").doesNotContain("private.jsonl");
    CliRun.Outcome sys = run(dir, dir.resolve("s.jsonl"), Path.of("/sys/kernel/secpe-report.json"));
    assertThat(sys.code()).isEqualTo(2);
    assertThat(sys.err()).contains("--report /sys/kernel/secpe-report.json is under /sys").doesNotContain("private.jsonl");
    CliRun.Outcome checkpoint = run(dir, dir.resolve("s.jsonl"), dir.resolve("r.json"), "--checkpoint", "/sys/kernel");
    assertThat(checkpoint.code()).as(checkpoint.err()).isEqualTo(2);
    assertThat(checkpoint.err()).contains("--checkpoint /sys/kernel is under /sys").doesNotContain("private.jsonl");
    // Usable paths pass the check (the run then stops at the missing private file) and keep no probe.
    CliRun.Outcome fine = run(dir, dir.resolve("s.jsonl"), dir.resolve("r.json"));
    assertThat(fine.err()).startsWith("error: --private");
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith(".secpe-write-check"));
    }
  }

  @Test
  void aBadReportOrCheckpointPathFailsBeforeThePrivateFileIsRead(@TempDir Path dir) throws Exception {
    // Before, an unusable --report or --checkpoint failed only when it was first written: after
    // the releases were drawn. No private file exists here: the path checks must come first.
    CliRun.Outcome report = run(dir, dir.resolve("s.jsonl"), dir.resolve("no/such/dir/r.json"));
    assertThat(report.code()).isEqualTo(2);
    assertThat(report.err()).contains("--report").contains("does not exist").doesNotContain("private.jsonl");
    Path file = dir.resolve("plain");
    Files.writeString(file, "x");
    for (Path cp : List.of(file, file.resolve("cp"))) {
      CliRun.Outcome o = run(dir, dir.resolve("s.jsonl"), dir.resolve("r.json"), "--checkpoint", cp.toString());
      assertThat(o.code()).as(o.err()).isEqualTo(2);
      assertThat(o.err()).contains("--checkpoint").doesNotContain("private.jsonl");
    }
    assertThat(Files.readString(file)).isEqualTo("x");
  }

  // fault: crash while writing an output or a checkpoint
  // holds: outputs and checkpoints are written to a temporary file in the same directory, forced to the disk and renamed: the old file or the new one, never half; a failed write removes its temporary file (also `RunKillNineTest`, `RunFullDiskTest`)
  @Test
  void writesLeaveNoTemporaryFilesBehind(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("x.txt");
    OutputPaths.writeAtomically(target, p -> Files.writeString(p, "done"));
    assertThat(Files.readString(target)).isEqualTo("done");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("x.txt");
    }
  }

  @Test
  void aFailedOutputWriteNamesItsOptionAndPathNotTheTemporaryFile(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("synthetic.jsonl");
    // What SyntheticDataset.writeJsonl throws on a full disk: a message about the temporary file.
    assertThatThrownBy(() -> OutputPaths.writeAtomically("--out", target, p -> {
      throw new java.io.UncheckedIOException("cannot write synthetic dataset to " + p,
          new java.io.IOException("No space left on device"));
    })).isInstanceOf(IllegalStateException.class)
        .hasMessage("--out: cannot write " + target + ": IOException: No space left on device");
    try (var files = Files.list(dir)) {
      assertThat(files.toList()).isEmpty();
    }
  }

  // fault: missing or truncated (`.gz`) input file, or a directory given as one
  // holds: exit 2 with the option, the path and the cause, no private text; an unreadable file takes the same path (not tested: the tests run as root)
  @Test
  void aMissingOrTruncatedInputIsBadInputNotAnInternalError(@TempDir Path dir) throws Exception {
    CliRun.Outcome missing = run(dir, dir.resolve("s.jsonl"), dir.resolve("r.json"));
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).startsWith("error: --private file not found: ").contains("private.jsonl")
        .doesNotContain("internal error");
    // A gzip file cut in the middle.
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(bytes)) {
      for (int i = 0; i < 200; i++) {
        gz.write(("{\"text\": \"line " + i + " of a long private file\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    byte[] all = bytes.toByteArray();
    Files.write(dir.resolve("private.jsonl.gz"), java.util.Arrays.copyOf(all, all.length / 2));
    CliRun.Outcome gz = CliRun.execute(List.of("run", "--method", "augpe", "--generator", "test-fake-generator",
        "--private", dir.resolve("private.jsonl.gz").toString(),
        "--synthetic-size", "2", "--iterations", "1", "--epsilon", "1", "--delta", "1e-5", "--quiet",
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString()));
    assertThat(gz.code()).isEqualTo(2);
    assertThat(gz.err()).contains("private.jsonl.gz").doesNotContain("internal error")
        .doesNotContain("long private file");
    // A directory given as --private (the issue: "internal error", exit 1).
    Path asDir = Files.createDirectory(dir.resolve("private-dir.jsonl"));
    CliRun.Outcome asDirectory = CliRun.execute(List.of("run", "--method", "augpe", "--generator", "test-fake-generator",
        "--private", asDir.toString(),
        "--synthetic-size", "2", "--iterations", "1", "--epsilon", "1", "--delta", "1e-5", "--quiet",
        "--out", dir.resolve("s2.jsonl").toString(), "--report", dir.resolve("r2.json").toString()));
    assertThat(asDirectory.code()).isEqualTo(2);
    assertThat(asDirectory.err()).startsWith("error: --private").contains("private-dir")
        .doesNotContain("internal error");
  }
}
