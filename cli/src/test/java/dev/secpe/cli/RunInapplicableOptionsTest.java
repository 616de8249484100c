package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** Options the chosen method would ignore are refused (exit 2) before anything is read. */
class RunInapplicableOptionsTest {

  // fault: option the method would ignore, `--labels` without `--label-field`
  // holds: exit 2 naming the option
  @ParameterizedTest
  @CsvSource({
    "ctcl, --iterations, 3, --iterations does not apply to --method ctcl",
    "ctcl, --variations, 2, --variations does not apply to --method ctcl",
    "augpe, --topics, 5, --topics does not apply to --method augpe (it is read by --method ctcl)",
    "augpe, --clusters, 5, --clusters does not apply to --method augpe (it is read by --method secpe)",
    "dpga, --steps, 10, --steps does not apply to --method dpga",
    "dpga, --variations, 2, '--variations does not apply to --method dpga (it is read by --method augpe, secpe)'",
    "secpe, --clip-norm, 2, --clip-norm does not apply to --method secpe",
    "augpe, --labels, 'a,b', --labels needs --label-field",
    "ctcl, --vote-geometry, cosine, '--vote-geometry does not apply to --method ctcl (it is read by --method augpe, dpga, secpe)'",
    "augpe, --vote-geometry, euclid, '--vote-geometry takes centred or cosine, got vote-geometry=euclid'",
  })
  void isRefused(String method, String option, String value, String message, @TempDir Path dir) {
    List<String> args = new ArrayList<>(List.of("run", "--method", method,
        "--private", dir.resolve("absent.jsonl").toString(), "--synthetic-size", "2",
        "--epsilon", "1", "--delta", "1e-5",
        "--out", dir.resolve("s.jsonl").toString(), "--report", dir.resolve("r.json").toString(),
        option, value));
    if (!method.equals("ctcl") && !option.equals("--iterations")) {
      args.addAll(List.of("--iterations", "1"));
    }
    CliRun.Outcome o = CliRun.execute(args);
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains(message).doesNotContain("absent.jsonl");
  }
}
