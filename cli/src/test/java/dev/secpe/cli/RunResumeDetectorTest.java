package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SecPE checkpoint is bound to its secret detector's whole configuration (issue 50, case 2): a
 * resume with another terms file under the same name and with as many terms was accepted, served
 * the first run's releases and claimed (p, r) for terms it never protected.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunResumeDetectorTest {

  /** Record i holds the code words zqa{i} and zqb{i} (two digits), which the terms files name. */
  private static void codeWords(FaultRun f) throws Exception {
    List<String> out = new ArrayList<>();
    int i = 0;
    for (String line : Files.readAllLines(f.privateFile)) {
      ObjectNode n = (ObjectNode) FaultRun.JSON.readTree(line);
      n.put("text", n.path("text").asText() + String.format(" ref zqa%02d zqb%02d", i, i));
      out.add(n.toString());
      i++;
    }
    Files.write(f.privateFile, out);
  }

  private static Path terms(Path dir, List<String> terms) throws Exception {
    Files.createDirectories(dir);
    return Files.write(dir.resolve("terms.txt"), terms);
  }

  // fault: `secpe run --method secpe --secrets terms:a/terms.txt --checkpoint CK`, then `--resume` with `--secrets terms:b/terms.txt` (also `terms.txt`, also 40 lines, 20 of them other terms)
  // holds: exit 2 before anything is drawn, saying the secret detector's configuration changed (terms, patterns or options), naming no term and no digest; the checkpoint and every journal `run` and SecPE `charge` entry carry the detector's digest, and the same terms file still resumes (before: exit 0, "release(s) served from the checkpoint", and a report claiming (p, r) for terms the releases never protected)
  @Test
  void aResumeWithAnotherTermsFileOfTheSameNameAndSizeIsRefused(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    codeWords(f);
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      a.add(String.format("zqa%02d", i));
      b.add(String.format(i < 20 ? "zqa%02d" : "zqb%02d", i));
    }
    Path termsA = terms(dir.resolve("a"), a);
    Path termsB = terms(dir.resolve("b"), b);
    String ck = dir.resolve("ck").toString();
    CliRun.Outcome first = CliRun.execute(f.secpe("--secrets", "terms:" + termsA, "--checkpoint", ck));
    assertThat(first.code()).as(first.err()).isZero();
    List<String> charged = f.charged();
    byte[] checkpoint = Files.readAllBytes(dir.resolve("ck").resolve("checkpoint.json"));
    String digest = FaultRun.JSON.readTree(checkpoint).path("detector").asText();
    assertThat(digest).matches("sha256:[0-9a-f]{64}");
    JsonNode journal = journalEntries(f);
    journal.forEach(e -> {
      if (e.path("type").asText().equals("run") || e.path("type").asText().equals("charge")) {
        assertThat(e.path("detector").asText()).as(e.toString()).isEqualTo(digest);
      }
    });

    CliRun.Outcome other = CliRun.execute(f.secpe("--secrets", "terms:" + termsB, "--checkpoint", ck, "--resume",
        "--out", dir.resolve("b.jsonl").toString(), "--report", dir.resolve("b.json").toString()));
    assertThat(other.code()).as(other.out() + other.err()).isEqualTo(2);
    assertThat(other.err()).contains("secret detector").contains("configuration changed")
        .contains("terms, patterns or options").contains("nothing was drawn")
        .doesNotContain("zqa").doesNotContain("zqb").doesNotContain("sha256:");
    assertThat(dir.resolve("b.jsonl")).doesNotExist();
    assertThat(f.charged()).isEqualTo(charged);
    assertThat(Files.readAllBytes(dir.resolve("ck").resolve("checkpoint.json"))).isEqualTo(checkpoint);

    CliRun.Outcome same = CliRun.execute(f.secpe("--secrets", "terms:" + termsA, "--checkpoint", ck, "--resume"));
    assertThat(same.code()).as(same.err()).isZero();
    assertThat(f.charged()).isEqualTo(charged);
  }

  /** Every entry of the dataset's journal, as a JSON array. */
  private static JsonNode journalEntries(FaultRun f) throws Exception {
    Path file = Path.of(f.spent().path("journal").asText());
    var out = FaultRun.JSON.createArrayNode();
    for (String line : Files.readAllLines(file)) {
      out.add(FaultRun.JSON.readTree(line));
    }
    return out;
  }
}
