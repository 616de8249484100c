package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The order of {@code run}'s checks (issue 53): a combination of options that cannot work is refused
 * before any start-up work (reading an input, training a generator, loading or probing a model), and
 * a missing input file is said first, the same way as {@code evaluate} says it, before any hint about
 * other options.
 */
class RunCheckOrderTest {

  @TempDir Path dir;

  /** A run whose --private file does not exist, and whose --public holds a 'label' field (a hint). */
  private List<String> args(String method, String... extra) throws Exception {
    Path pub = dir.resolve("public.jsonl");
    Files.writeString(pub, "{\"text\": \"a public text\", \"label\": \"a\"}\n{\"text\": \"another one\", \"label\": \"b\"}\n");
    List<String> a = new ArrayList<>(List.of("run", "--method", method,
        "--private", dir.resolve("absent.jsonl").toString(), "--public", pub.toString(),
        "--synthetic-size", "2", "--iterations", "1", "--journal", dir.resolve("journal").toString(),
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString()));
    a.addAll(List.of(extra));
    return a;
  }

  // fault: an option combination that cannot work (`--secret-free-votes` or `--public-joins-clusters` without `--secret-free-public`, SecPE with `--epsilon/--delta`, `--resume` without `--checkpoint`) (issue 53)
  // holds: refused (exit 2) before any input is read or any model loaded: with a missing `--private` the combination is what is reported (before: after the inputs were read, the generator trained and the providers probed, 7 s)
  @ParameterizedTest
  @CsvSource({
    "secpe, --secret-free-votes, '', --secret-free-votes needs --secret-free-public",
    "secpe, --public-joins-clusters, '', --public-joins-clusters needs --secret-free-public",
    "secpe, --epsilon, 1, SecPE needs a (p, r) budget",
    "augpe, --resume, '', --resume needs --checkpoint DIR",
  })
  void aCombinationThatCannotWorkIsRefusedBeforeAnyStartUpWork(
      String method, String option, String value, String message) throws Exception {
    List<String> a = args(method, option);
    if (!value.isEmpty()) {
      a.add(value);
    }
    if (option.equals("--epsilon")) {
      a.addAll(List.of("--delta", "1e-5"));
    } else {
      a.addAll(List.of("--p", "1e-4", "--r", "1e-3"));
    }
    CliRun.Outcome o = CliRun.execute(a);
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains(message).doesNotContain("absent.jsonl").doesNotContain("label' field");
    assertThat(o.err().lines().count()).as(o.err()).isEqualTo(1);
  }

  @Test
  void theCombinationIsRefusedBeforeAProviderIsProbed() throws Exception {
    // Every input present; an embedder whose every request blocks: the probe would never return.
    Path priv = Files.writeString(dir.resolve("private.jsonl"), "{\"text\": \"write to a@b.example\"}\n");
    List<String> a = args("secpe", "--secret-free-votes", "--p", "1e-4", "--r", "1e-3",
        "--embedder", "test-blocking-embedder", "--generator", "test-fake-generator");
    a.set(a.indexOf("--private") + 1, priv.toString());
    CliRun.Outcome o = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> CliRun.execute(a));
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--secret-free-votes needs --secret-free-public");
  }

  // fault: `run --private` names a file that does not exist (issue 53)
  // holds: exit 2 with `--private file not found: PATH` as the only line, before any hint about other options, in the words `evaluate` uses (before: a hint about `--public`'s label field first, then "--private: cannot read PATH: NoSuchFileException")
  @Test
  void aMissingInputFileIsSaidFirstAndAsEvaluateSaysIt() throws Exception {
    Path missing = dir.resolve("absent.jsonl");
    CliRun.Outcome run = CliRun.execute(args("secpe", "--p", "1e-4", "--r", "1e-3"));
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("error: --private file not found: " + missing + System.lineSeparator());
    Path other = Files.writeString(dir.resolve("real.jsonl"), "{\"text\": \"a\"}\n");
    CliRun.Outcome evaluate = CliRun.execute("evaluate", "--synthetic", other.toString(), "--real", missing.toString());
    assertThat(evaluate.code()).isEqualTo(2);
    assertThat(evaluate.err()).isEqualTo("error: --real file not found: " + missing + System.lineSeparator());
    // A terms file of --secrets reads the same, before the hint too.
    Path priv = Files.writeString(dir.resolve("private.jsonl"), "{\"text\": \"x\"}\n");
    List<String> a = args("secpe", "--p", "1e-4", "--r", "1e-3", "--secrets", "terms:" + dir.resolve("nope.txt"));
    a.set(a.indexOf("--private") + 1, priv.toString());
    CliRun.Outcome terms = CliRun.execute(a);
    assertThat(terms.code()).isEqualTo(2);
    assertThat(terms.err()).isEqualTo(
        "error: --secrets terms file not found: " + dir.resolve("nope.txt") + System.lineSeparator());
  }
}
