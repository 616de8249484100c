package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** delta must be below 1/N unless the user accepts it explicitly, and then the report says so. */
class RunDeltaTest {

  private static int run(Path dir, StringWriter err, String... extra) throws Exception {
    List<String> priv = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      priv.add("{\"text\": \"please reset the password of account " + i + " before friday\"}");
    }
    Files.write(dir.resolve("private.jsonl"), priv);
    List<String> args = new ArrayList<>(List.of("run", "--method", "augpe",
        "--private", dir.resolve("private.jsonl").toString(), "--public", dir.resolve("private.jsonl").toString(),
        "--synthetic-size", "4", "--iterations", "1", "--embedder", "all-minilm-l6-v2-q",
        "--reproducible-noise", "1", "--quiet",
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString()));
    args.addAll(List.of(extra));
    CliRun.Outcome o = CliRun.execute(args);
    err.write(o.err());
    return o.code();
  }

  /**
   * A budget whose noise swamps the votes is named before the run starts: 30 records spread over
   * 4 x 4 = 16 candidates give about 1.9 votes each, and epsilon 1e-3 needs sigma in the
   * thousands; epsilon 1e3 needs far less than one.
   */
  // fault: settings that leave the output to the noise (Aug-PE's or DPGA's vote noise above the average vote a candidate receives, as epsilon 1e-9 or a million Aug-PE iterations give; SecPE's centre noise above its centres)
  // holds: those known before anything private is read (Aug-PE's and DPGA's) come from `warnings()` on each entry point and `bin/secpe run` prints them as `warning: ...` on stderr before it starts; all of them are in the report's `warnings`, with the numbers and what to change (also `AugPETest`, `DPGATest`, `SecPETest`); SecPE's iterations cost no budget, so a long SecPE run is slow, not useless, and gets no warning
  @Test
  void uselessNoiseIsWarnedAboutBeforeTheRun(@TempDir Path dir) throws Exception {
    StringWriter err = new StringWriter();
    assertThat(run(dir, err, "--epsilon", "1e-3", "--delta", "1e-3")).as(err.toString()).isZero();
    String e = err.toString();
    assertThat(e).contains("warning: Aug-PE's vote noise (sigma = ").contains("30 private records over 16 candidates");
    StringWriter quietErr = new StringWriter();
    Files.delete(dir.resolve("r.json"));
    Files.delete(dir.resolve("s.jsonl"));
    assertThat(run(dir, quietErr, "--epsilon", "1000", "--delta", "1e-3")).as(quietErr.toString()).isZero();
    // The only warning left is the journal's: these runs draw seeded noise, which protects nothing.
    assertThat(quietErr.toString().lines().filter(l -> l.startsWith("warning:")))
        .allMatch(l -> l.contains("reproducible (seeded) noise") && l.contains("unbounded"));
    assertThat(quietErr.toString()).doesNotContain("vote noise");
  }

  // fault: `--delta` >= 1/N (N private records)
  // holds: exit 2 naming the option; `--allow-large-delta` accepts such a delta and the run warns before it starts and in the report's `warnings`; library users get the same warning from `warnings()` and the report (also `AugPETest.aDeltaNotBelowOneOverNIsWarnedAboutBeforeTheRunAndInTheReport`)
  @Test
  void aDeltaAboveOneOverNIsRefusedUnlessAccepted(@TempDir Path dir) throws Exception {
    StringWriter err = new StringWriter();
    assertThat(run(dir, err, "--epsilon", "1", "--delta", "0.5")).isEqualTo(2);
    assertThat(err.toString()).contains("delta=0.5 is not below 1/N").contains("--allow-large-delta");
    assertThat(Files.exists(dir.resolve("r.json"))).isFalse();

    StringWriter err2 = new StringWriter();
    assertThat(run(dir, err2, "--epsilon", "1", "--delta", "0.5", "--allow-large-delta")).as(err2.toString()).isZero();
    // accepted, and said before the run and in the report
    assertThat(err2.toString()).contains("warning: delta=0.5 is not below 1/N");
    JsonNode report = new ObjectMapper().readTree(dir.resolve("r.json").toFile());
    assertThat(report.get("warnings").toString()).contains("delta=0.5 is not below 1/N");

    StringWriter err3 = new StringWriter();
    Files.delete(dir.resolve("r.json"));
    assertThat(run(dir, err3, "--epsilon", "1", "--delta", "1e-3")).as(err3.toString()).isZero();
    // no large-delta warning (this small run may still carry a noise warning)
    assertThat(String.valueOf(new ObjectMapper().readTree(dir.resolve("r.json").toFile()).get("warnings")))
        .doesNotContain("not below 1/N");
  }
}
