package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the command line words a bad command line (issue 53). */
class CliErrorsTest {

  @Test
  void aBudgetOfBothFormsSaysTheyExcludeEachOtherWithoutADoubledPrefix() {
    CliRun.Outcome o = CliRun.execute("run", "--method", "secpe", "--private", "x.jsonl", "--synthetic-size", "4",
        "--out", "s.jsonl", "--report", "r.json", "--p", "1e-4", "--epsilon", "1", "--delta", "1e-5");
    assertThat(o.code()).isEqualTo(2);
    // was: "error: Error: Missing required argument(s): --r=<r>"
    assertThat(o.err()).startsWith("error: Missing required argument(s): --r=<r>")
        .contains("--p with --r, or --epsilon with --delta: the two forms exclude each other")
        .doesNotContain("Error:");
  }

  @Test
  void aMissingPartOfOneFormIsNotBlamedOnTheOther() {
    CliRun.Outcome o = CliRun.execute("run", "--method", "secpe", "--private", "x.jsonl", "--synthetic-size", "4",
        "--out", "s.jsonl", "--report", "r.json", "--p", "1e-4");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).startsWith("error: Missing required argument(s): --r=<r>").doesNotContain("exclude");
    // Another missing option is not a budget matter, whatever budget options were given.
    CliRun.Outcome other = CliRun.execute("run", "--method", "secpe", "--private", "x.jsonl",
        "--p", "1e-4", "--epsilon", "1", "--delta", "1e-5");
    assertThat(other.err()).startsWith("error: Missing required options:").doesNotContain("exclude");
  }

  @Test
  void bothFormsAreRecognisedWithEqualsSigns() {
    assertThat(CliErrors.mixesBudgetForms(new String[] {"--p=1e-4", "--delta=1e-5"})).isTrue();
    assertThat(CliErrors.mixesBudgetForms(new String[] {"--p", "1e-4", "--r", "1e-3"})).isFalse();
    assertThat(CliErrors.mixesBudgetForms(new String[] {"--epsilon", "1", "--delta", "1e-5"})).isFalse();
  }
}
