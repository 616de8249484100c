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

  // fault: `--clusters K` larger than a label group's secret-free records in the split (issue 50, "Also")
  // holds: exit 2 naming K, the group and its size, as the plain mode refuses K larger than a group's public set (before: K was lowered in silence)
  @Test
  void aGivenKLargerThanAGroupsPublicPartIsRefused(@TempDir Path dir) throws Exception {
    // ham: 20 records, none with a secret; spam: every record holds one, so its clusters are built
    // on its 20 public records. K = 60 asks 30 of each.
    Outcome o = run(dir, "--secret-free-public", "--clusters", "60");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("clusters K=60 asks for 30 clusters in label group ham")
        .contains("(20 records)").contains("give K <= 40");
    assertThat(Files.exists(o.report())).isFalse();
    Outcome plain = run(Files.createDirectories(dir.resolve("plain")), "--clusters", "60");
    assertThat(plain.code()).isEqualTo(2);
    assertThat(plain.err()).contains("clusters K=60 asks for 30 clusters in label group ham");
  }

  /** 40 labelled records; every third holds an e-mail address, so both labels hold some without. */
  private static List<String> mixedRecords() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String label = i % 2 == 0 ? "spam" : "ham";
      out.add(i % 3 == 0
          ? "{\"label\": \"" + label + "\", \"text\": \"Reply about order " + i + " to buyer" + i
              + "@shop.example please\"}"
          : "{\"label\": \"" + label + "\", \"text\": \"A note about order number " + i
              + " and its delivery schedule\"}");
    }
    return out;
  }

  /** The split on {@link #mixedRecords()} without --public: labels declared, the hash embedder. */
  private static CliRun.Outcome runWithoutPublic(Path dir, String... extra) throws Exception {
    Files.write(dir.resolve("private.jsonl"), mixedRecords());
    List<String> args = new ArrayList<>(List.of("run", "--method", "secpe",
        "--private", dir.resolve("private.jsonl").toString(), "--label-field", "label", "--labels", "ham,spam",
        "--synthetic-size", "10", "--iterations", "2", "--variations", "2", "--p", "1e-4", "--r", "1e-3",
        "--embedder", "test-hash-embedder", "--reproducible-noise", "1", "--quiet",
        "--journal", dir.resolve("journal").toString(),
        "--out", dir.resolve("synthetic.jsonl").toString(),
        "--report", dir.resolve("report.json").toString()));
    args.addAll(List.of(extra));
    return CliRun.execute(args);
  }

  // fault: `run --secret-free-public` without `--public` and with a generator plugged in through the SPI (issue 50, case 9)
  // holds: the run finishes, its clusters built on the secret-free records; with or without votes (before: "--public is required for SecPE: its clusters are built on public text only", exit 2)
  @Test
  void theSplitRunsWithoutPublicWhenTheGeneratorNeedsNone(@TempDir Path dir) throws Exception {
    for (String votes : new String[] {"--secret-free-public", "--secret-free-votes"}) {
      Path d = Files.createDirectories(dir.resolve(votes.substring(2)));
      CliRun.Outcome o = votes.equals("--secret-free-public")
          ? runWithoutPublic(d, "--secret-free-public", "--generator", "test-fake-generator")
          : runWithoutPublic(d, "--secret-free-public", votes, "--generator", "test-fake-generator");
      assertThat(o.code()).as(o.err()).isZero();
      assertThat(Files.readAllLines(d.resolve("synthetic.jsonl"))).hasSize(10);
      JsonNode r = new ObjectMapper().readTree(d.resolve("report.json").toFile());
      assertThat(r.get("mechanisms")).hasSize(2);
    }
  }

  @Test
  void withoutPublicAGeneratorThatLearnsFromItIsRefusedBeforeAnythingIsRead(@TempDir Path dir) throws Exception {
    // The default generator is the embedded splice one, trained here on --public.
    CliRun.Outcome o = runWithoutPublic(dir, "--secret-free-public");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err())
        .contains("--generator embedded-splice (the default) learns from public text: give --public")
        .contains("corpus=FILE")
        .contains("a --generator that needs no training text");
    assertThat(Files.exists(dir.resolve("report.json"))).isFalse();
    // Without the split SecPE's clusters still need --public.
    CliRun.Outcome plain = runWithoutPublic(dir, "--generator", "test-fake-generator");
    assertThat(plain.code()).isEqualTo(2);
    assertThat(plain.err()).contains("--public is required for SecPE").contains("--secret-free-public");
    // --public-joins-clusters names the corpus that joins.
    CliRun.Outcome joins = runWithoutPublic(dir, "--secret-free-public", "--public-joins-clusters",
        "--generator", "test-fake-generator");
    assertThat(joins.code()).isEqualTo(2);
    assertThat(joins.err()).contains("--public-joins-clusters needs --public");
    // Random-word secrets are chosen from public text.
    CliRun.Outcome words = runWithoutPublic(dir, "--secret-free-public", "--generator", "test-fake-generator",
        "--secrets", "random-words");
    assertThat(words.code()).isEqualTo(2);
    assertThat(words.err()).contains("--secrets random-words needs --public");
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

  /** 40 records: even ones name a person and give no address, odd ones hold nothing personal. */
  private static CliRun.Outcome runOnNames(Path dir, String... extra) throws Exception {
    List<String> priv = new ArrayList<>();
    List<String> pub = new ArrayList<>();
    String[] people = {"Priya Patel", "John Smith", "Maria Garcia", "David Okafor"};
    for (int i = 0; i < 40; i++) {
      priv.add(i % 2 == 0
          ? "{\"text\": \"" + people[i / 2 % 4] + " asked when order " + i + " will be delivered\"}"
          : "{\"text\": \"A note about order number " + i + " and its delivery schedule\"}");
      pub.add("{\"text\": \"public message " + i + " about orders and deliveries\"}");
    }
    Files.write(dir.resolve("private.jsonl"), priv);
    Files.write(dir.resolve("public.jsonl"), pub);
    List<String> args = new ArrayList<>(List.of("run", "--method", "secpe",
        "--private", dir.resolve("private.jsonl").toString(), "--public", dir.resolve("public.jsonl").toString(),
        "--synthetic-size", "10", "--iterations", "1", "--variations", "2", "--p", "1e-4", "--r", "1e-3",
        "--embedder", "test-hash-embedder", "--generator", "test-fake-generator", "--reproducible-noise", "1",
        "--quiet", "--journal", dir.resolve("journal").toString(),
        "--out", dir.resolve("synthetic.jsonl").toString(), "--report", dir.resolve("report.json").toString()));
    args.addAll(List.of(extra));
    return CliRun.execute(args);
  }

  // fault: the split (`--secret-free-public`) with the default `--secrets` on records that name a person but give no address (issue 50, decision on case 6)
  // holds: in the split the default is `pii,names` (recall first: a record whose secret the detector misses is used exactly), and the report names both detectors; without the split the default stays `pii` (before: `pii` in both, so every such record was used exactly, without noise)
  @Test
  void inTheSplitTheDefaultSecretsAddNames(@TempDir Path dir) throws Exception {
    CliRun.Outcome split = runOnNames(Files.createDirectories(dir.resolve("split")), "--secret-free-public");
    assertThat(split.code()).as(split.err()).isZero();
    JsonNode r = new ObjectMapper().readTree(dir.resolve("split").resolve("report.json").toFile());
    assertThat(r.get("deviations").toString()).contains("Secrets were detected by 'pii-regex + names'");
    assertThat(r.get("mechanisms")).isNotEmpty();
    // The same records without the split: pii alone finds no secret in them.
    CliRun.Outcome plain = runOnNames(Files.createDirectories(dir.resolve("plain")));
    assertThat(plain.code()).isEqualTo(2);
    assertThat(plain.err()).contains("--secrets");
    CliRun.Outcome piiOnly = runOnNames(Files.createDirectories(dir.resolve("pii")), "--secret-free-public",
        "--secrets", "pii");
    assertThat(piiOnly.code()).isEqualTo(2);
  }
}
