package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help} renders cleanly: picocli reads descriptions as format strings,
 * and a bare {@code %} (such as "1% apart" in {@code bench accounting --grid}) made it print
 * three "[picocli WARN] Could not format" lines on standard error before the usage.
 */
class HelpTextTest {

  @Test
  void everyUsageMessageRendersWithoutPicocliWarnings() {
    List<CommandLine> all = new ArrayList<>();
    collect(SecpeCli.commandLine(), all);
    assertThat(all.size()).as("commands found").isGreaterThan(10);
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    List<String> usages = new ArrayList<>();
    try {
      for (CommandLine c : all) {
        usages.add(c.getUsageMessage());
      }
    } finally {
      System.setErr(saved);
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(String.join("\n", usages).replaceAll("\\s+", " "))
        .contains("more than 1% apart").doesNotContain("%n");
  }

  // fault: `run --help` said --secret-free-votes draws the survivors "in proportion to the votes" (issue 50, "Also")
  // holds: the help says what the code does: the top of each label's histogram survives
  @Test
  void theSplitOptionsSayWhatTheyDo() {
    String usage = SecpeCli.commandLine().getSubcommands().get("run").getUsageMessage().replaceAll("\\s+", " ");
    assertThat(usage)
        .contains("the top of each label's histogram survives")
        .doesNotContain("in proportion to the votes")
        .contains("--public is optional");
  }

  // fault: `run --help`: `--epsilon` and `--delta` without a description, `--iterations` "required", `--clusters` gave `min(N_syn, base / 3)` where SecPE chooses `min(ceil(N_syn / groups), base / 3)` per label group (issue 53)
  // holds: each budget option says what it is, which methods take it and the other form; `--iterations` gives the library's default 3; `--clusters` gives the rule per label group and that a K a group cannot hold is refused, never lowered; `--secrets` gives the split's default
  @Test
  void theRunOptionsSayWhatTheyAreAndTheirDefaults() {
    CommandLine run = SecpeCli.commandLine().getSubcommands().get("run");
    assertThat(description(run, "--epsilon")).contains("(epsilon, delta)").contains("augpe, dpga and ctcl")
        .contains("secpe takes --p/--r only").contains("alternative to --p/--r");
    assertThat(description(run, "--delta")).contains("with --epsilon").contains("below 1/N")
        .contains("--allow-large-delta");
    assertThat(description(run, "--p")).contains("every method takes").contains("--epsilon/--delta");
    assertThat(description(run, "--iterations")).contains("default: 3").doesNotContain("required");
    assertThat(description(run, "--clusters")).contains("min(ceil(N_syn / groups), base / 3)")
        .doesNotContain("min(N_syn, base / 3)").contains("refused, never lowered").contains("per label group");
    assertThat(description(run, "--secrets")).contains("default: pii, and pii,names with --secret-free-public");
    assertThat(description(run, "--quiet")).contains("warnings and errors are still printed");
  }

  private static String description(CommandLine c, String option) {
    return String.join(" ", c.getCommandSpec().findOption(option).description());
  }

  private static void collect(CommandLine c, List<CommandLine> out) {
    out.add(c);
    for (CommandLine sub : c.getSubcommands().values()) {
      if (!out.contains(sub)) {
        collect(sub, out);
      }
    }
  }
}
