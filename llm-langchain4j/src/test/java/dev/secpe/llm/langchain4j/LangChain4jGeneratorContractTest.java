package dev.secpe.llm.langchain4j;

import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.testkit.TextGeneratorContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The generator contract on LangChain4j's {@code OpenAiChatModel} against a loopback server (which
 * is deterministic per prompt and seed; the seed reaches it through OpenAI's own parameter).
 */
class LangChain4jGeneratorContractTest implements TextGeneratorContract {

  private static final StubOpenAiServer SERVER;
  private static final LangChain4jTextGenerator GENERATOR;

  static {
    try {
      SERVER = new StubOpenAiServer();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    GENERATOR = LangChain4jTextGenerator.builder(Models.openAi(SERVER))
        .parameters(Models::withOpenAiSeed)
        .maxConcurrency(3)
        .timeout(Duration.ofSeconds(20))
        .build();
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
