package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sizes and values that cannot work are refused before any private record is read or anything is
 * charged, naming the option (issue 32's sweep: overflowing sizes charged their releases and wrote
 * an empty output, 2^31-1 CTCL steps hung, /dev/zero ran out of memory, and ten unclear messages).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunLimitsTest {

  private static void refused(FaultRun f, CliRun.Outcome o, String... message) throws Exception {
    assertThat(o.code()).as(o.err()).isEqualTo(2);
    for (String m : message) {
      assertThat(o.err()).contains(m);
    }
    assertThat(o.err()).doesNotContain("internal error").doesNotContain("Exception:");
    assertThat(f.runs()).as("nothing journalled: no run started").isZero();
  }

  // fault: sizes past their stated limits or whose product overflows: `--variations 100000000`, `--synthetic-size 1000000000`, `ctcl --steps 2147483647`, a billion DPGA records
  // holds: exit 2 before any input is read, naming the option, the value and the limit (`SizeLimits`: 10^7 synthetic texts, 2·10^7 candidates a round, 10^9 over a run, 10^4 variations, 10^6 iterations, 10^6 CTCL steps; the builders check the same with exact arithmetic) (before: the releases were charged, then an empty output with "-1294967266 candidates a round", exit 0; DPGA ran on; CTCL hung in accounting)
  @Test
  void oversizedRunsAreRefusedBeforeAnythingIsRead(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    refused(f, f.run("--variations", "100000000"), "--variations must be at most 10000");
    refused(f, CliRun.execute(f.secpe("--variations", "100000000")), "--variations must be at most 10000");
    refused(f, f.run("--synthetic-size", "1000000000"), "--synthetic-size must be at most 10000000");
    refused(f, f.run("--synthetic-size", "9000000", "--variations", "3"), "--synthetic-size 9000000 with --variations 3",
        "candidates a round exceeds the limit of 20000000");
    refused(f, f.run("--method", "dpga", "--synthetic-size", "1000000000"), "--synthetic-size must be at most 10000000");
    refused(f, f.run("--method", "dpga", "--synthetic-size", "5000000", "--iterations", "2"), "candidates a round exceeds");
    refused(f, CliRun.execute(f.ctcl("--steps", "2147483647")), "--steps must be at most 1000000");
  }

  // fault: input that never ends or one huge record: `--private /dev/zero --format jsonl`, a valid JSON line longer than the record limit
  // holds: exit 2 with "a record longer than N characters (the limit maxRecordChars=N); raise it with --max-record-chars", read in bounded memory; `--max-input-bytes` bounds a whole input the same way (before: OutOfMemoryError with a stack trace; a 50 MB line was "not valid JSON")
  @Test
  void endlessOrHugeInputStopsAtALimitThatNamesItsOption(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    refused(f, f.run("--private", "/dev/zero", "--format", "jsonl", "--max-record-chars", "100000"),
        "--private: /dev/zero: line 1: a record longer than 100000 characters", "raise it with --max-record-chars");
    Path big = dir.resolve("big.jsonl");
    Files.writeString(big, FaultRun.JSON.createObjectNode().put("text", "word ".repeat(60_000)).toString() + "\n");
    refused(f, f.run("--private", big.toString(), "--max-record-chars", "200000"), "--max-record-chars");
    refused(f, f.run("--max-input-bytes", "1000"), "more than 1000 bytes of input", "raise it with --max-input-bytes");
  }

  // fault: unclear input errors: `--private` a directory, a FIFO or a device without a format in its name, an empty `--public` file
  // holds: exit 2 naming the option: "is a directory: give a file", "cannot tell its format from its name …: give --format jsonl or --format csv" (`--format` is new), "--public … holds no records" (before: "set format", an option that did not exist, and "give --public" for a --public that was given)
  @Test
  void inputsThatAreNotDataFilesNameTheOption(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    Path d = Files.createDirectory(dir.resolve("records"));
    refused(f, f.run("--private", d.toString()), "--private " + d + " is a directory");
    refused(f, f.run("--private", "/dev/null"), "--private /dev/null (a character device)", "give --format jsonl");
    Path empty = dir.resolve("empty.jsonl");
    Files.writeString(empty, "");
    refused(f, f.run("--public", empty.toString()), "--public " + empty + " holds no records");
  }

  // fault: values the methods cannot use: `--delta NaN`, `ctcl --histogram-sigma 1e-300`, `ctcl --clip-norm 1e308`, `--checkpoint ''`, an unknown `--provider-option`, `--labels` missing a label of the private records
  // holds: exit 2 naming the option and its range or the fix ("--delta must be a finite number in (0.0, 1.0)", "--histogram-sigma must be a finite number in [0.001, 1.0E9]", "--checkpoint must not be empty", "--provider-option nosuch is not read by --embedder …", "--labels ham does not list every label of --private: N record(s) carry 1 other label(s), among them spam (found in --public)"; a label found only in private records is not named) (before: 1/N, "sigma=0.0", "noiseScale=Infinity", a checkpoint in the current directory, the option ignored, "private record at index 1")
  @Test
  void valuesTheMethodsCannotUseNameTheOption(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    refused(f, f.run("--delta", "NaN"), "--delta must be a finite number in (0.0, 1.0), got --delta NaN");
    refused(f, CliRun.execute(f.ctcl("--histogram-sigma", "1e-300")), "--histogram-sigma must be a finite number in [0.001, 1.0E9]");
    refused(f, CliRun.execute(f.ctcl("--clip-norm", "1e308")), "--clip-norm must be a finite number in [1.0E-6, 1000000.0]");
    refused(f, f.run("--checkpoint", ""), "--checkpoint must not be empty");
    refused(f, f.run("--provider-option", "nosuch=1"), "--provider-option nosuch is not read by --embedder test-hash-embedder; it reads none");
    refused(f, f.run("--embedder", "all-minilm-l6-v2", "--provider-option", "thread=2"),
        "--provider-option thread is not read by --embedder all-minilm-l6-v2", "threads");
    CliRun.Outcome labels = f.run("--label-field", "label", "--labels", "ham");
    assertThat(labels.code()).as(labels.err()).isEqualTo(2);
    assertThat(labels.err()).contains("--labels ham does not list every label of --private").contains("spam (found in --public)")
        .doesNotContain("index");
  }
}
