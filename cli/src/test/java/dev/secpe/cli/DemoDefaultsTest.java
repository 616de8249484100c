package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bin/secpe demo} is the quick demo unless asked for the full grid. */
class DemoDefaultsTest {

  @Test
  void theQuickDemoIsFourRunsAndFullIsTheGridWithEitherAxisOverridable() {
    DemoCommand quick = parse();
    assertThat(quick.ratios).isNull();
    assertThat(quick.seeds).isNull();
    assertThat(DemoCommand.QUICK_RATIOS).containsExactly("10");
    assertThat(DemoCommand.QUICK_SEEDS).isEqualTo(1);
    assertThat(DemoCommand.FULL_RATIOS).containsExactly("2", "10", "inf");
    assertThat(DemoCommand.FULL_SEEDS).isEqualTo(3);
    DemoCommand full = parse("--full", "--seeds", "5");
    assertThat(full.full).isTrue();
    assertThat(full.seeds).isEqualTo(5);
    assertThat(parse("--ratios", "2,inf").ratios).containsExactly("2", "inf");
  }

  @Test
  void theQuickDemoSaysWhatTheFullGridWouldCostAtItsPace() {
    // 4 runs in 40 s after 60 s of set-up: 36 runs at 10 s each plus the set-up = 420 s = 7 min.
    assertThat(DemoCommand.fullGridCost(4, 36, 40, 60))
        .contains("bin/secpe demo --full").contains("36 runs").contains("about 7 min");
    // 4 runs in 41 s: 369 s + 60 s = 429 s, rounded up to 8 min.
    assertThat(DemoCommand.fullGridCost(4, 36, 41, 60)).contains("about 8 min");
    assertThat(DemoCommand.fullGridCost(36, 36, 400, 60)).isEmpty();
  }

  private static DemoCommand parse(String... args) {
    DemoCommand c = new DemoCommand();
    new CommandLine(c).parseArgs(args);
    return c;
  }
}
