package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --private} on a FIFO that no process writes to hung for good (checked with {@code bin/secpe
 * run} under {@code timeout 25}: exit 124). It now exits 2 after {@code --input-timeout}, naming
 * the option and the path, before anything is written. The JUnit timeout only guards the build.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunStalledInputTest {

  private static List<String> args(Path dir, String... more) {
    List<String> a = new java.util.ArrayList<>(List.of("run", "--method", "augpe",
        "--synthetic-size", "2", "--iterations", "1", "--epsilon", "1", "--delta", "1e-5", "--quiet",
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString()));
    a.addAll(List.of(more));
    return a;
  }

  // fault: input that never arrives: `--private` on a FIFO that no process writes to, a writer or file system that stalls
  // holds: the open and every read wait at most `--input-timeout` (default 60 s; `DatasetReader.Builder.readTimeout`), then exit 2: "--private: cannot open PATH within 60 s: a FIFO or pipe that no process writes to, or a stalled file system"; FIFOs that deliver are read as usual (also `InputFilesTest`) (before: `bin/secpe run` hung for good)
  @Test
  void aFifoWithNoWriterExitsTwoNamingTheOptionAndThePath(@TempDir Path dir) throws Exception {
    Path fifo = dir.resolve("private.jsonl");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo is not available");
    Files.write(dir.resolve("public.jsonl"), List.of("{\"text\": \"the printer on floor two needs toner\"}"));

    CliRun.Outcome o = CliRun.execute(args(dir, "--private", fifo.toString(),
        "--public", dir.resolve("public.jsonl").toString(), "--input-timeout", "1"));
    assertThat(o.code()).as(o.err()).isEqualTo(2);
    assertThat(o.err().strip())
        .isEqualTo("error: --private: cannot open " + fifo + " within 1 s: a FIFO or pipe that no process"
            + " writes to, or a stalled file system; raise --input-timeout if its writer is only slow");
    assertThat(dir.resolve("s.jsonl")).doesNotExist();
    assertThat(dir.resolve("r.json")).doesNotExist();
    new FileOutputStream(fifo.toFile()).close(); // releases the reader thread still blocked in open

    // The public file is checked the same way, and first.
    CliRun.Outcome pub = CliRun.execute(args(dir, "--private", dir.resolve("public.jsonl").toString(),
        "--public", fifo.toString(), "--input-timeout", "1"));
    assertThat(pub.code()).isEqualTo(2);
    assertThat(pub.err()).startsWith("error: --public: cannot open " + fifo);
    new FileOutputStream(fifo.toFile()).close();
  }

  @Test
  void aNonPositiveInputTimeoutIsRefused(@TempDir Path dir) {
    CliRun.Outcome o = CliRun.execute(
        args(dir, "--private", dir.resolve("p.jsonl").toString(), "--input-timeout", "0"));
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--input-timeout must be >= 1 second, got --input-timeout 0");
  }
}
