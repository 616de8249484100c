package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.report.Phase;
import dev.secpe.core.report.PhaseTimings;
import dev.secpe.core.report.RunEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Off a terminal (a log file, CI) progress is one line per finished phase, with no carriage
 * return and no bar drawn twice; every message is a line of its own; the one-off embedding of the
 * private and of the public records is labelled apart (both were "round 0 embedding").
 */
class ConsoleProgressTest {

  private static String feed(boolean terminal, List<RunEvent> events) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      ConsoleProgress progress = new ConsoleProgress(err, terminal);
      events.forEach(progress::onEvent);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static final List<RunEvent> SECPE_LIKE = List.of(
      new RunEvent.RunStarted("secpe", 2, 0),
      new RunEvent.Progress(0, Phase.EMBEDDING, 64, 100),
      new RunEvent.Progress(0, Phase.EMBEDDING, 100, 100),
      new RunEvent.Progress(0, Phase.EMBEDDING, 64, 80),
      new RunEvent.ReleaseCharged(Release.gaussian("secpe/secret-clustering/all", "secrets", 1.0, 2.0)),
      new RunEvent.Progress(0, Phase.EMBEDDING, 80, 80),
      new RunEvent.RoundStarted(0, 2),
      new RunEvent.Progress(0, Phase.GENERATION, 5, 10),
      new RunEvent.Progress(0, Phase.GENERATION, 10, 10),
      new RunEvent.Progress(0, Phase.EMBEDDING, 10, 10),
      new RunEvent.RoundFinished(0, PhaseTimings.ZERO, 10),
      new RunEvent.RunFinished(PhaseTimings.ZERO));

  @Test
  void offATerminalEachFinishedPhaseIsOneLineAndEveryMessageItsOwn() {
    String out = feed(false, SECPE_LIKE);
    assertThat(out).doesNotContain("\r");
    List<String> lines = out.lines().toList();
    assertThat(lines).hasSize(8);
    assertThat(lines.get(0)).isEqualTo("secpe: 2 rounds");
    assertThat(lines.get(1)).startsWith("private records embedding: 100 texts in ");
    // The release came while the public records were being embedded: the stretch's line first.
    assertThat(lines.get(2)).startsWith("public records embedding: 64 texts of 80 in ");
    assertThat(lines.get(3)).isEqualTo("release charged: secpe/secret-clustering/all (Gaussian)");
    assertThat(lines.get(4)).startsWith("public records embedding: 80 texts in ");
    assertThat(lines.get(5)).startsWith("round 0 generation: 10 requests in ");
    assertThat(lines.get(6)).startsWith("round 0 embedding: 10 texts in ");
    assertThat(lines.get(7)).startsWith("round 0 done: generation 0.00s");
  }

  @Test
  void onATerminalMessagesStillStartOnALineOfTheirOwn() {
    String out = feed(true, SECPE_LIKE);
    assertThat(out).contains("private records embedding").contains("public records embedding");
    // A message never follows a bar on the same line.
    assertThat(out).containsPattern("\\n(release charged: secpe/secret-clustering/all)");
    assertThat(out).doesNotContainPattern("[^\\n]release charged");
    assertThat(out).doesNotContainPattern("[^\\n]round 0 done");
  }
}
