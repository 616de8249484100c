package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code secpe bench}: the CLI contract on bad input (the benchmarks themselves are timed runs,
 * never tests).
 */
class BenchCommandTest {

  @Test
  void unknownScaleIsBadInputOnOneLine() {
    CliRun.Outcome r = CliRun.execute("bench", "vote", "--scale", "huge");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("error: scale must be small or yelp, got scale=huge");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void nonPositiveSizesAreBadInput() {
    CliRun.Outcome r = CliRun.execute("bench", "kernel", "--m", "0");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("m=0");
  }

  @Test
  void benchIsRegisteredWithBothSubcommands() {
    CliRun.Outcome r = CliRun.execute("bench", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("kernel").contains("vote");
  }

  @Test
  void peerOptionsAreCheckedByName() {
    CliRun.Outcome sets = CliRun.execute(
        "bench", "accounting", "--peer", ".", "--peer-sets", "issue,grid");
    assertThat(sets.code()).isEqualTo(2);
    assertThat(sets.err().strip())
        .isEqualTo("error: --peer-sets must name issue, ctcl, plan or prv, got grid");
    CliRun.Outcome missing = CliRun.execute(
        "bench", "accounting", "--peer", "no/such/checkout");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err().strip())
        .isEqualTo("error: --peer must be a directory, got no/such/checkout");
    assertThat(missing.out()).isEmpty();
  }

  @Test
  void gridFiltersAreCheckedByName() {
    CliRun.Outcome r =
        CliRun.execute("bench", "accounting", "--grid", "--max-steps", "0");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("error: --max-steps must be at least 1, got 0");
    r = CliRun.execute("bench", "accounting", "--grid", "--min-steps", "-3");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("error: --min-steps must be at least 1, got -3");
    r = CliRun.execute("bench", "accounting", "--grid", "--q", "1.5");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("error: --q must hold sampling rates in (0, 1], got 1.5");
  }
}
