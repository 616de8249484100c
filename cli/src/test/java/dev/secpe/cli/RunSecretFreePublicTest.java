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
 * {@code run --method secpe --secret-free-public}: the paper's dataset split on the command line,
 * and the edge cases a user meets with labelled data.
 */
class RunSecretFreePublicTest {

  private record Outcome(int code, String err, Path report) {}

  /** 40 labelled records; spam ones (even) hold an e-mail address, ham ones (odd) none. */
  private static List<String> records() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      out.add(i % 2 == 0
          ? "{\"label\": \"spam\", \"text\": \"Buy cheap watches now, offer " + i + ": write to seller" + i
              + "@shop.example today\"}"
          : "{\"label\": \"ham\", \"text\": \"Meeting notes for the weekly team sync, item " + i
              + ", about the project schedule\"}");
    }
    return out;
  }

  private static Outcome run(Path dir, String... extra) throws Exception {
    Files.write(dir.resolve("private.jsonl"), records());
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      pub.add("{\"label\": \"" + (i % 2 == 0 ? "spam" : "ham") + "\", \"text\": \"public message " + i
          + " about offers, meetings and schedules\"}");
    }
    Files.write(dir.resolve("public.jsonl"), pub);
    List<String> args = new ArrayList<>(List.of("run", "--method", "secpe",
        "--private", dir.resolve("private.jsonl").toString(),
        "--public", dir.resolve("public.jsonl").toString(), "--label-field", "label",
        "--synthetic-size", "10", "--iterations", "2", "--variations", "2", "--p", "1e-4", "--r", "1e-3",
        "--generator", "ngram", "--embedder", "all-minilm-l6-v2-q", "--reproducible-noise", "1", "--quiet",
        "--journal", dir.resolve("journal").toString(),
        "--out", dir.resolve("synthetic.jsonl").toString(),
        "--report", dir.resolve("report.json").toString()));
    args.addAll(List.of(extra));
    CliRun.Outcome o = CliRun.execute(args);
    return new Outcome(o.code(), o.err(), dir.resolve("report.json"));
  }

  // fault: SecPE on labelled data where one label's records hold no secret, with the default `--secrets pii` (`bin/secpe run`)
  // holds: exit 0 with the requested output, with and without `--secret-free-public`; the label group without secrets costs nothing (before: `sigma must be finite and > 0, got sigma=Infinity` after every private record was embedded, exit 2)
  @Test
  void aLabelWithoutSecretsRunsWithAndWithoutTheSplit(@TempDir Path dir) throws Exception {
    Outcome plain = run(dir);
    assertThat(plain.code()).as(plain.err()).isZero();
    assertThat(Files.readAllLines(dir.resolve("synthetic.jsonl"))).hasSize(10);
    Path other = Files.createDirectories(dir.resolve("split"));
    Outcome split = run(other, "--secret-free-public");
    assertThat(split.code()).as(split.err()).isZero();
  }

  @Test
  void theReportSaysWhichRecordsWereUsedWithoutNoiseAndHowKWasChosen(@TempDir Path dir) throws Exception {
    Outcome o = run(dir, "--secret-free-public", "--secret-free-votes");
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode r = new ObjectMapper().readTree(o.report().toFile());
    String deviations = r.get("deviations").toString();
    assertThat(deviations)
        .contains("found no secret were used without noise as SecPE's public part")
        .contains("covers the named secrets only, not membership")
        .contains("Secret-free votes")
        .contains("K was chosen from the data");
    // The record texts never reach the report.
    assertThat(Files.readString(o.report())).doesNotContain("@shop.example").doesNotContain("Meeting notes");
  }

  @Test
  void optionsOfTheSplitNeedIt(@TempDir Path dir) throws Exception {
    Outcome votes = run(dir, "--secret-free-votes");
    assertThat(votes.code()).isEqualTo(2);
    assertThat(votes.err()).contains("--secret-free-votes needs --secret-free-public");
    Outcome joins = run(dir, "--public-joins-clusters");
    assertThat(joins.code()).isEqualTo(2);
    assertThat(joins.err()).contains("--public-joins-clusters needs --secret-free-public");
  }

  @Test
  void theSplitIsRefusedWithSparkBeforeAnythingIsRead(@TempDir Path dir) throws Exception {
    Outcome o = run(dir, "--secret-free-public", "--spark", "local[1]");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--secret-free-public").contains("cannot be used with --spark");
    assertThat(Files.exists(o.report())).isFalse();
  }

  @Test
  void theSplitIsSecPeOnly(@TempDir Path dir) throws Exception {
    Outcome o = run(dir, "--secret-free-public");
    assertThat(o.code()).as(o.err()).isZero();
    CliRun.Outcome refused = CliRun.execute("run", "--method", "augpe",
        "--private", dir.resolve("private.jsonl").toString(),
        "--public", dir.resolve("public.jsonl").toString(), "--synthetic-size", "5", "--iterations", "1",
        "--p", "1e-4", "--r", "1e-3", "--secret-free-public",
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString());
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err()).contains("--secret-free-public does not apply to --method augpe");
  }
}
