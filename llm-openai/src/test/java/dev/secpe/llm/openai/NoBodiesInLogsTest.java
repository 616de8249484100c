package dev.secpe.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** With every log level on, retry logging names status and URL only: no prompt, no key. */
class NoBodiesInLogsTest {

  @Test
  void retryLogsCarryNoRequestBodyAndNoKey() throws Exception {
    Logger jul = Logger.getLogger(OpenAiHttp.class.getName());
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler h = new Handler() {
      @Override
      public void publish(LogRecord r) {
        lines.add(r.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Level old = jul.getLevel();
    jul.setLevel(Level.ALL);
    jul.addHandler(h);
    try (LoopbackOpenAi server = new LoopbackOpenAi(
            (id, a) -> a == 1 ? LoopbackOpenAi.Fault.SERVER_ERROR : LoopbackOpenAi.Fault.NONE,
            Duration.ZERO, Duration.ZERO);
        OpenAiTextGenerator gen = OpenAiTextGenerator.create(OpenAiTextGeneratorTest.fastConfig(server).build())) {
      gen.generate(OpenAiTextGeneratorTest.requests(5));
    } finally {
      jul.removeHandler(h);
      jul.setLevel(old);
    }
    assertThat(lines.stream().filter(l -> l.contains("HTTP 500"))).as("retries were logged").hasSize(5);
    assertThat(lines).allSatisfy(l -> assertThat(l)
        .contains("/v1/chat/completions")
        .doesNotContain(OpenAiTextGeneratorTest.SECRET_WORDS)
        .doesNotContain("sk-test-1")
        .doesNotContain("req-"));
  }
}
