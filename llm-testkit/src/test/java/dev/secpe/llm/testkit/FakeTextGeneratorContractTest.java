package dev.secpe.llm.testkit;

import dev.secpe.llm.TextGenerator;

class FakeTextGeneratorContractTest implements TextGeneratorContract {
  private final TextGenerator generator = FakeTextGenerator.builder().concurrency(3).build();

  @Override
  public TextGenerator generator() {
    return generator;
  }

  @Override
  public boolean deterministicUnderSeed() {
    return true;
  }
}
