package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ThroughputLineTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aLongStretchSaysCountsRateAndTimeLeftThenItsTotal() throws InterruptedException {
    ThroughputLine line = new ThroughputLine(out, "embedding", 1280, Duration.ZERO);
    Thread.sleep(20);
    line.advance(320);
    line.advanceTo(1280);
    String[] lines = printed().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).matches("embedding: 320/1,280 texts, [0-9]+\\.[0-9] texts/s, about [0-9]+ s left");
    assertThat(lines[1]).matches("embedding: 1,280 texts in [0-9]+ s, [0-9]+\\.[0-9] texts/s");
    assertThat(printed()).doesNotContain("NaN").doesNotContain("Infinity");
  }

  @Test
  void aShortStretchPrintsNothing() {
    ThroughputLine line = new ThroughputLine(out, "embedding", 100, Duration.ofMinutes(1));
    line.advance(50);
    line.advance(50);
    assertThat(printed()).isEmpty();
  }

  @Test
  void durationsReadAsAPersonWouldSayThem() {
    assertThat(ThroughputLine.duration(12.4)).isEqualTo("12 s");
    assertThat(ThroughputLine.duration(185)).isEqualTo("3 min 05 s");
    assertThat(ThroughputLine.duration(3720)).isEqualTo("1 h 02 min");
  }
}
