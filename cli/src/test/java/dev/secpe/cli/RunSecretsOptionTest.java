package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --method secpe --secrets SPEC} on a corpus without PII (no e-mail address, phone or
 * card number anywhere): what to protect is chosen on the command line.
 */
class RunSecretsOptionTest {

  /** Texts of 12 words drawn with Zipf-like frequencies from 120 plain words; no PII. */
  private static List<String> texts(int n, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder sb = new StringBuilder();
      for (int w = 0; w < 12; w++) {
        int rank = (int) Math.floor(Math.pow(120, rng.nextDouble())) - 1;
        sb.append(w == 0 ? "" : " ").append("word").append((char) ('a' + rank / 26)).append((char) ('a' + rank % 26));
      }
      out.add("{\"text\": \"" + sb + "\"}");
    }
    return out;
  }

  private record Outcome(int code, String err, Path report) {}

  private static Outcome run(Path dir, String... extra) throws Exception {
    return run(dir, texts(60, 1), extra);
  }

  private static Outcome run(Path dir, List<String> privateRecords, String... extra) throws Exception {
    return run(dir, privateRecords, true, extra);
  }

  private static Outcome run(Path dir, List<String> privateRecords, boolean seeded, String... extra) throws Exception {
    Files.write(dir.resolve("private.jsonl"), privateRecords);
    Files.write(dir.resolve("public.jsonl"), texts(60, 2));
    List<String> args = new ArrayList<>(List.of("run", "--method", "secpe",
        "--private", dir.resolve("private.jsonl").toString(),
        "--public", dir.resolve("public.jsonl").toString(),
        "--synthetic-size", "8", "--iterations", "1", "--clusters", "4", "--p", "1e-4", "--r", "1e-3",
        "--embedder", "all-minilm-l6-v2-q", "--quiet",
        "--out", dir.resolve("synthetic.jsonl").toString(),
        "--report", dir.resolve("report.json").toString()));
    if (seeded) {
      args.addAll(List.of("--reproducible-noise", "1"));
    }
    args.addAll(List.of(extra));
    CliRun.Outcome o = CliRun.execute(args);
    return new Outcome(o.code(), o.err(), dir.resolve("report.json"));
  }

  private static String deviations(Path report) throws Exception {
    JsonNode r = new ObjectMapper().readTree(report.toFile());
    return r.get("deviations").toString();
  }

  // fault: no secret found for SecPE
  // holds: stops before any noise is drawn; the message names `--secrets` / `SecPE.Builder.secrets(...)`
  @Test
  void withoutSecretsTheErrorNamesTheOption(@TempDir Path dir) throws Exception {
    Outcome o = run(dir);
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("no secrets were detected by 'pii-regex'").contains("--secrets");
    assertThat(Files.exists(o.report())).isFalse();
  }

  @Test
  void randomWordsFromThePublicTextProtectThisCorpus(@TempDir Path dir) throws Exception {
    Outcome o = run(dir, "--secrets", "random-words:10");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(deviations(o.report())).contains("random-words(count=10, quantile=0.2, public text)");
    assertThat(Files.readAllLines(dir.resolve("synthetic.jsonl"))).hasSize(8);
  }

  @Test
  void termsFromAFileAreProtectedAndNeverPrinted(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("terms.txt"), List.of("# secret terms", "", "wordaa", "wordab", "wordac"));
    Outcome o = run(dir, "--secrets", "terms:" + dir.resolve("terms.txt") + ",pii");
    assertThat(o.code()).as(o.err()).isZero();
    String report = Files.readString(o.report());
    assertThat(deviations(o.report())).contains("terms(3 from terms.txt) + pii-regex");
    assertThat(report).doesNotContain("wordaa").doesNotContain("wordab").doesNotContain("wordac");
  }

  // fault: two SecPE runs on one dataset that protected different secrets (`--secrets terms:FILE`, then `random-words:10`), whose releases cannot be composed into one (p, r)
  // holds: the second run exits 0 with its output and report; the report's `journal.spent` is null with a `spent_error` that counts nothing the detectors found, and the reason goes to stderr only (before: the run failed after drawing, exit 2, and no report was written)
  @Test
  void aDatasetTotalThatCannotBeComposedCostsNeitherTheReportNorASecretCount(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("terms.txt"), List.of("wordaa", "wordab", "wordac"));
    String journal = dir.resolve("journal").toString();
    // Secure noise: seeded noise would make the total unbounded, which is said before composition.
    assertThat(run(dir, texts(60, 1), false, "--secrets", "terms:" + dir.resolve("terms.txt"), "--journal", journal).code())
        .isZero();
    Outcome o = run(dir, texts(60, 1), false, "--secrets", "random-words:10", "--journal", journal);
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(Files.readAllLines(dir.resolve("synthetic.jsonl"))).hasSize(8);
    JsonNode j = new ObjectMapper().readTree(o.report().toFile()).get("journal");
    assertThat(j.get("runs").asInt()).isEqualTo(2);
    assertThat(j.get("spent").isNull()).isTrue();
    assertThat(j.get("spent_error").asText()).contains("could not be composed").doesNotContainPattern("[0-9]");
    assertThat(Files.readString(o.report())).doesNotContain("secrets but earlier releases cover");
    assertThat(o.err()).contains("could not compose what the dataset has spent");
  }

  @Test
  void badSpecificationsFailBeforeAnyPrivateRecordIsRead(@TempDir Path dir) throws Exception {
    Outcome unknown = run(dir, "--secrets", "pii,foo");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("--secrets: unknown entry 'foo'");
    Outcome count = run(dir, "--secrets", "random-words:abc");
    assertThat(count.code()).isEqualTo(2);
    assertThat(count.err()).contains("--secrets: COUNT must be a positive integer, got random-words:abc");
    Outcome missing = run(dir, "--secrets", "terms:" + dir.resolve("nope.txt"));
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("--secrets terms file not found: ").contains("nope.txt");
    // The option is checked before the private file is opened: with a missing private file the
    // error is still about --secrets.
    CliRun.Outcome refused = CliRun.execute("run", "--method", "secpe",
        "--private", dir.resolve("absent.jsonl").toString(),
        "--public", dir.resolve("public.jsonl").toString(), "--synthetic-size", "5", "--iterations", "1",
        "--p", "1e-4", "--r", "1e-3", "--secrets", "foo",
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString());
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err()).contains("--secrets: unknown entry 'foo'").doesNotContain("absent.jsonl");
  }

  private static double sigma(Path report) throws Exception {
    return new ObjectMapper().readTree(report.toFile()).get("privacy").get("sigma").asDouble();
  }

  /**
   * With {@code --secret-cap K} sigma follows from (p, r, K) alone: the private file with its last
   * 20 records removed (which changes who holds which secret) gets the same sigma, so sigma
   * reveals nothing about the private records. The paper's data-dependent mode is not held to that.
   */
  @Test
  void withASecretCapSigmaDoesNotDependOnThePrivateRecords(@TempDir Path dir) throws Exception {
    Outcome all = run(dir, "--secrets", "random-words:10", "--secret-cap", "2");
    assertThat(all.code()).as(all.err()).isZero();
    double capped = sigma(all.report());
    assertThat(capped).isPositive().isFinite();
    assertThat(deviations(all.report())).contains("Contribution-bounded calibration (secretCap K=2");

    Path fewer = Files.createDirectory(dir.resolve("fewer"));
    Outcome subset = run(fewer, texts(60, 1).subList(0, 40), "--secrets", "random-words:10", "--secret-cap", "2");
    assertThat(subset.code()).as(subset.err()).isZero();
    assertThat(sigma(subset.report())).isEqualTo(capped);

    Outcome bad = run(dir, "--secrets", "random-words:10", "--secret-cap", "0");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--secret-cap must be >= 1").contains("0").doesNotContain("secretCap");
  }

  @Test
  void secretsApplyToSecPeOnly(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("private.jsonl"), texts(20, 1));
    CliRun.Outcome refused = CliRun.execute("run", "--method", "augpe",
        "--private", dir.resolve("private.jsonl").toString(),
        "--synthetic-size", "5", "--iterations", "1", "--epsilon", "1", "--delta", "1e-5",
        "--secrets", "pii", "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString());
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err()).contains("--secrets does not apply to --method augpe (it is read by --method secpe)");
  }
}
