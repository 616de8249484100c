package dev.secpe.llm.openai;

import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.testkit.TextGeneratorContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import net.jqwik.api.lifecycle.AfterContainer;

/** The generator contract against the loopback server (which is deterministic per seed). */
class OpenAiGeneratorContractTest implements TextGeneratorContract {

  private static final LoopbackOpenAi SERVER;
  private static final OpenAiTextGenerator GENERATOR;

  static {
    try {
      SERVER = LoopbackOpenAi.healthy();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    GENERATOR = OpenAiTextGenerator.create(OpenAiConfig.builder()
        .endpoint(Endpoint.of(SERVER.baseUrl()))
        .maxConcurrency(3)
        .requestTimeout(Duration.ofSeconds(10))
        .build());
  }

  @AfterContainer
  static void stop() {
    GENERATOR.close();
    SERVER.close();
  }

  @Override
  public TextGenerator generator() {
    return GENERATOR;
  }

  @Override
  public boolean deterministicUnderSeed() {
    return true;
  }
}
