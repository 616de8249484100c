package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every warning of a run's report reaches stderr once (issue 53): before, {@code run} kept those
 * only the run can know (SecPE's centre noise against its centres' power, texts that stayed
 * copies) in the report, although the guide said "the run also warns".
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunWarningsTest {

  // fault: a run whose report warns of something only the run can know (SecPE's centre noise many times its centres' power), with `--quiet` (issue 53)
  // holds: every warning of the report is on stderr exactly once, as `warning: ...`, with `--quiet` too; those printed before the run started (`warnings()`) are not printed again (before: the centre noise warning was in the report only)
  @Test
  void everyWarningOfTheReportIsOnStderrOnceWithQuietToo(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    // 40 private records: the default delta 1/(N ln N) says little (a warning known before the run);
    // 4 clusters of about 10 public records: centre noise d (2R sigma / n_k)^2 far above |e_k|^2 <= 1.
    List<String> args = f.secpe();
    assertThat(args).contains("--quiet");
    CliRun.Outcome o = CliRun.execute(args);
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode report = FaultRun.JSON.readTree(dir.resolve("report.json").toFile());
    List<String> warnings = new ArrayList<>();
    report.path("warnings").forEach(w -> warnings.add(w.asText()));
    assertThat(warnings)
        .anySatisfy(w -> assertThat(w).startsWith("The centre noise of SecPE's representatives"))
        .anySatisfy(w -> assertThat(w).contains("default delta 1/(N ln N)"));
    List<String> lines = o.err().lines().toList();
    for (String w : warnings) {
      assertThat(lines.stream().filter(l -> l.equals("warning: " + w)).count()).as(w).isEqualTo(1);
    }
  }
}
