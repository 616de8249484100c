package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal tells a split run from any other (issue 50, case 7): a SecPE run with {@code
 * --secret-free-public} uses every record without a detected secret exactly, so no record-level
 * bound holds for the dataset; before, {@code privacy spent} said {@code "record_level":
 * {"epsilon": 0.0, ...}} and the journal's entries of a split and a plain run differed only in ids
 * and times.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunJournalModeTest {

  // fault: a plain SecPE run and a split run (`--secret-free-public`) on one dataset: identical journal entries apart from ids and times, and `privacy spent` said `"record_level": {"epsilon": 0.0, ...}` although the split used every secret-free record without noise
  // holds: each run is journalled with its `mode` ("secpe", "secpe-split", "secpe-split-votes"; the method for Aug-PE, DPGA, CTCL) and `exactRecords`; `privacy spent` lists both per run and its `record_level` says `"bounded": false`, `epsilon` null, `exact_record_runs`, `secret_noise_runs` and why (`unbounded`), never 0; the run report's `privacy` block names its `guarantee` per secret, its `mode` and `exact_records`; an Aug-PE-only dataset's `record_level` stays bounded
  @Test
  void aSplitRunIsJournalledAsOneAndTheRecordLevelTotalIsNeverZero(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    CliRun.Outcome plain = CliRun.execute(f.secpe("--secrets", "pii", "--report", dir.resolve("plain.json").toString()));
    assertThat(plain.code()).as(plain.err()).isZero();
    // In the split the clusters are built on the 3 records in which pii finds nothing: K from the
    // data (a given K = 4 is refused, never lowered).
    List<String> splitArgs = f.secpe("--secrets", "pii", "--secret-free-public",
        "--out", dir.resolve("split.jsonl").toString(), "--report", dir.resolve("split.json").toString());
    splitArgs.subList(splitArgs.indexOf("--clusters"), splitArgs.indexOf("--clusters") + 2).clear();
    CliRun.Outcome split = CliRun.execute(splitArgs);
    assertThat(split.code()).as(split.err()).isZero();

    JsonNode spent = f.spent();
    assertThat(spent.path("runs").get(0).path("mode").asText()).isEqualTo("secpe");
    assertThat(spent.path("runs").get(0).path("exact_records").asBoolean(true)).isFalse();
    assertThat(spent.path("runs").get(1).path("mode").asText()).isEqualTo("secpe-split");
    assertThat(spent.path("runs").get(1).path("exact_records").asBoolean(false)).isTrue();
    JsonNode rec = spent.path("spent").path("record_level");
    assertThat(rec.path("bounded").asBoolean(true)).as(rec.toString()).isFalse();
    assertThat(rec.path("epsilon").isNull()).as(rec.toString()).isTrue();
    assertThat(rec.path("exact_record_runs").asInt()).isEqualTo(1);
    assertThat(rec.path("secret_noise_runs").asInt()).isEqualTo(1);
    assertThat(rec.path("unbounded").asText()).contains("1 run(s) used the records in which the detector found no secret exactly")
        .contains("--secret-free-public");
    assertThat(rec.path("releases").asInt()).isZero();
    assertThat(spent.path("spent").path("per_secret").path("releases").asInt()).isPositive();

    JsonNode report = FaultRun.JSON.readTree(dir.resolve("split.json").toFile());
    JsonNode privacy = report.path("privacy");
    assertThat(privacy.path("guarantee").asText()).startsWith("(p, r)-secret protection of each detected secret")
        .contains("used exactly, without noise").contains("no record-level bound");
    assertThat(privacy.path("mode").asText()).isEqualTo("secpe-split");
    assertThat(privacy.path("exact_records").asBoolean(false)).isTrue();
    assertThat(report.path("journal").path("spent").path("record_level").path("bounded").asBoolean(true)).isFalse();
    JsonNode plainPrivacy = FaultRun.JSON.readTree(dir.resolve("plain.json").toFile()).path("privacy");
    assertThat(plainPrivacy.path("guarantee").asText()).startsWith("(p, r)-secret protection of each detected secret");
    assertThat(plainPrivacy.path("exact_records").asBoolean(true)).isFalse();
    // The journal's entries themselves say it, not only the command that reads them.
    Path journal = Path.of(spent.path("journal").asText());
    assertThat(Files.readAllLines(journal).stream().filter(l -> l.contains("\"type\":\"run\"")))
        .anySatisfy(l -> assertThat(l).contains("\"mode\":\"secpe-split\"").contains("\"exactRecords\":true"))
        .anySatisfy(l -> assertThat(l).contains("\"mode\":\"secpe\"").contains("\"exactRecords\":false"));

    // Aug-PE alone: record-level DP, bounded.
    FaultRun a = new FaultRun(Files.createDirectory(dir.resolve("augpe")));
    assertThat(a.run().code()).isZero();
    JsonNode augpe = a.spent();
    assertThat(augpe.path("runs").get(0).path("mode").asText()).isEqualTo("augpe");
    JsonNode augRec = augpe.path("spent").path("record_level");
    assertThat(augRec.path("bounded").asBoolean(false)).isTrue();
    assertThat(augRec.path("epsilon").asDouble()).isPositive();
    assertThat(augRec.has("unbounded")).isFalse();
    assertThat(FaultRun.JSON.readTree(a.dir.resolve("report.json").toFile()).path("privacy").path("guarantee").asText())
        .startsWith("record-level differential privacy");
  }
}
