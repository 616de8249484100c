package dev.secpe.llm.springai;

import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.testkit.TextGeneratorContract;
import java.time.Duration;
import net.jqwik.api.lifecycle.AfterContainer;

/** The generator contract on the adapter around the stub chat model (deterministic per prompt). */
class SpringAiGeneratorContractTest implements TextGeneratorContract {

  private static final SpringAiTextGenerator GEN = SpringAiTextGenerator.builder(new StubModels.Chat())
      .maxConcurrency(3).timeout(Duration.ofSeconds(20)).build();

  @AfterContainer
  static void stop() {
    GEN.close();
  }

  @Override
  public TextGenerator generator() {
    return GEN;
  }

  @Override
  public boolean deterministicUnderSeed() {
    return true;
  }
}
