package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code run}'s defaults are the library's (issue 53). */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunDefaultsTest {

  // fault: `run --method secpe|augpe|dpga` without `--iterations` (issue 53)
  // holds: the run takes the library's T = 3 vote rounds, as the report's three rounds show (before: "--iterations is required for --method secpe", exit 2)
  @ParameterizedTest
  @ValueSource(strings = {"secpe", "augpe", "dpga"})
  void withoutIterationsTheLibrarysThreeRoundsApply(String method, @TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    List<String> args = method.equals("secpe") ? f.secpe() : f.args("--method", method);
    int at = args.indexOf("--iterations");
    args.subList(at, at + 2).clear();
    CliRun.Outcome o = CliRun.execute(args);
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode report = FaultRun.JSON.readTree(dir.resolve("report.json").toFile());
    assertThat(report.path("timing").path("rounds")).hasSize(3);
    assertThat(Files.readAllLines(dir.resolve("synthetic.jsonl"))).hasSize(8);
  }
}
