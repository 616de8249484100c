package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --method ctcl} without {@code --generator}: CTCL fine-tunes the guided splice
 * generator, and says so; {@code --generator ngram} keeps the n-gram model.
 */
class RunCtclGeneratorTest {

  private static List<String> records(String topic, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("{\"text\": \"Report " + i + " on " + topic + ". The " + topic + " team met on day " + (i % 7)
          + ". Nothing else changed in " + topic + ".\"}");
    }
    return out;
  }

  private static String run(Path dir, String... extra) throws Exception {
    Files.write(dir.resolve("private.jsonl"), records("billing", 40));
    Files.write(dir.resolve("public.jsonl"), records("shipping", 60));
    List<String> args = new ArrayList<>(List.of("run", "--method", "ctcl",
        "--private", dir.resolve("private.jsonl").toString(),
        "--public", dir.resolve("public.jsonl").toString(),
        "--synthetic-size", "6", "--epsilon", "1", "--delta", "1e-3", "--topics", "2", "--steps", "10",
        "--batch-size", "10", "--embedder", "all-minilm-l6-v2-q", "--reproducible-noise", "1",
        "--out", dir.resolve("synthetic.jsonl").toString(),
        "--report", dir.resolve("report.json").toString()));
    args.addAll(List.of(extra));
    CliRun.Outcome o = CliRun.execute(args);
    assertThat(o.code()).as(o.err()).isZero();
    return o.err();
  }

  @Test
  void ctclFineTunesTheGuidedSpliceGeneratorByDefault(@TempDir Path dir) throws Exception {
    String err = run(dir);
    assertThat(err).contains("generator: embedded-guided-splice (embedded, trained on the 60 --public records)");
    List<String> out = Files.readAllLines(dir.resolve("synthetic.jsonl"));
    assertThat(out).hasSize(6);
    // The splice generator writes with the public sentences: every text is made of them.
    for (String line : out) {
      String text = new ObjectMapper().readTree(line).get("text").asText();
      assertThat(text).contains("shipping");
    }
    JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
    assertThat(report.toString()).contains("ctcl");
  }

  @Test
  void theNgramGeneratorStaysAvailableByName(@TempDir Path dir) throws Exception {
    assertThat(run(dir, "--generator", "ngram")).contains("generator: embedded-ngram (embedded");
  }
}
