package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 13: resuming with another {@code --private} file (60 instead of 150 records) exited 0,
 * mixing the first run's releases with other data. The checkpoint is bound to its inputs.
 */
class RunResumeInputsTest {

  private static List<String> records(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("{\"text\": \"ticket " + i + ": the invoice for order " + (i * 7) + " was charged twice\"}");
    }
    return out;
  }

  private static CliRun.Outcome run(Path dir, String privateFile, boolean resume) {
    List<String> args = new ArrayList<>(List.of("run", "--method", "augpe",
        "--private", dir.resolve(privateFile).toString(), "--public", dir.resolve("public.jsonl").toString(),
        "--synthetic-size", "6", "--iterations", "2", "--epsilon", "2", "--delta", "1e-5",
        "--embedder", "test-hash-embedder", "--reproducible-noise", "3", "--quiet",
        "--checkpoint", dir.resolve("cp").toString(),
        "--out", dir.resolve("synthetic.jsonl").toString(), "--report", dir.resolve("report.json").toString()));
    if (resume) {
      args.add("--resume");
    }
    return CliRun.execute(args);
  }

  @Test
  void aResumeWithAnotherPrivateFileIsRefusedAndTheCheckpointKept(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("private.jsonl"), records(150));
    Files.write(dir.resolve("fewer.jsonl"), records(150).subList(0, 60));
    Files.write(dir.resolve("public.jsonl"), records(40));
    CliRun.Outcome first = run(dir, "private.jsonl", false);
    assertThat(first.code()).as(first.err()).isZero();
    Path checkpoint = dir.resolve("cp").resolve("checkpoint.json");
    byte[] before = Files.readAllBytes(checkpoint);
    byte[] output = Files.readAllBytes(dir.resolve("synthetic.jsonl"));

    CliRun.Outcome other = run(dir, "fewer.jsonl", true);
    assertThat(other.code()).isEqualTo(2);
    assertThat(other.err()).contains("was written for other input records").contains("refusing to resume")
        .doesNotContain("ticket"); // no record text in the message
    assertThat(Files.readAllBytes(checkpoint)).isEqualTo(before);
    assertThat(Files.readAllBytes(dir.resolve("synthetic.jsonl"))).isEqualTo(output);

    // The same inputs resume (nothing left to draw: the same output).
    CliRun.Outcome same = run(dir, "private.jsonl", true);
    assertThat(same.code()).as(same.err()).isZero();
    assertThat(Files.readAllBytes(dir.resolve("synthetic.jsonl"))).isEqualTo(output);
  }
}
