package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --out} and {@code --report} never replace what is not the run's own (issue 32's sweep: the
 * terms file, /dev/null, a FIFO, a device, a link to /proc/self/fd/1 and the checkpoint itself were
 * replaced by the output; hard links to the inputs were not refused). Every case exits 2 before a
 * private record is read, and the path keeps what it was.
 */
class RunClobberTest {

  private static void refused(CliRun.Outcome o, String... message) {
    assertThat(o.code()).as(o.err()).isEqualTo(2);
    assertThat(o.err()).startsWith("error: ");
    for (String m : message) {
      assertThat(o.err()).contains(m);
    }
  }

  // fault: `--out` (or `--report`) on an input of any kind: the `--secrets terms:FILE` file, a file named by `--provider-option`, a hard link to `--private` or `--public`
  // holds: exit 2 before anything is read, naming both options ("is the same file as --secrets terms:…"); inputs are compared by real path and by device and inode, so a hard link is the same file (before: the terms file was replaced by the synthetic data, hard links were not refused)
  @Test
  void anInputOfAnyKindIsNeverAnOutput(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    Path terms = dir.resolve("terms.txt");
    Files.writeString(terms, "invoice\n");
    refused(CliRun.execute(f.secpe("--secrets", "terms:" + terms, "--out", terms.toString())),
        "--out " + terms, "is the same file as --secrets terms:");
    assertThat(Files.readString(terms)).isEqualTo("invoice\n");

    Path corpus = dir.resolve("corpus.jsonl");
    Files.copy(f.publicFile, corpus);
    refused(f.run("--generator", "embedded-ngram", "--provider-option", "corpus=" + corpus, "--report", corpus.toString()),
        "--report " + corpus, "is the same file as --provider-option corpus");

    for (Path input : List.of(f.privateFile, f.publicFile)) {
      Path link = dir.resolve("hard-" + input.getFileName());
      Files.createLink(link, input);
      byte[] was = Files.readAllBytes(input);
      refused(f.run("--out", link.toString()), "--out " + link, "is the same file as --p");
      assertThat(Files.readAllBytes(input)).isEqualTo(was);
      assertThat(Files.readAllBytes(link)).isEqualTo(was);
    }
  }

  // fault: `--out` or `--report` on `checkpoint.json` (or anything else) inside the `--checkpoint` directory, or inside the `--journal` directory
  // holds: exit 2 before anything is read: "is inside --checkpoint …, which the run keeps for its own files" (before: the checkpoint was replaced by the output)
  @Test
  void theCheckpointAndJournalDirectoriesAreTheRunsOwn(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    Path ck = dir.resolve("ck");
    refused(f.run("--checkpoint", ck.toString(), "--out", ck.resolve("checkpoint.json").toString()),
        "--out " + ck.resolve("checkpoint.json"), "is inside --checkpoint");
    refused(f.run("--checkpoint", ck.toString(), "--report", ck.resolve("checkpoint.json").toString()),
        "is inside --checkpoint");
    refused(f.run("--report", f.journal.resolve("report.json").toString()), "is inside --journal");
    assertThat(ck.resolve("checkpoint.json")).doesNotExist();
  }

  // fault: `--out` or `--report` that is not a regular file or a new path: `/dev/null`, `/dev/full`, a FIFO, a symbolic link (to `/proc/self/fd/1` or anywhere), a path under `/proc` or `/sys`
  // holds: exit 2 before anything is read, saying what the path is ("is a character device", "is a FIFO", "is a symbolic link (to …)", "is under /proc"); the path keeps its kind (before: /dev/null, the FIFO and the link were replaced by regular files)
  @Test
  void devicesFifosAndLinksAreNeverReplaced(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assumeTrue(Files.exists(Path.of("/dev/null")) && Files.exists(Path.of("/dev/full")), "/dev/null and /dev/full");
    refused(f.run("--out", "/dev/null"), "--out /dev/null is a character device");
    refused(f.run("--report", "/dev/full"), "--report /dev/full is a character device");
    assertThat(Files.isRegularFile(Path.of("/dev/null"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    Path fifo = dir.resolve("fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    refused(f.run("--out", fifo.toString()), "is a FIFO");
    assertThat(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS)).isFalse();
    Path link = dir.resolve("stdout-link");
    Files.createSymbolicLink(link, Path.of("/proc/self/fd/1"));
    refused(f.run("--out", link.toString()), "is a symbolic link (to /proc/self/fd/1)");
    assertThat(Files.isSymbolicLink(link)).isTrue();
    refused(f.run("--out", "/proc/self/status"), "is under /proc");
  }
}
