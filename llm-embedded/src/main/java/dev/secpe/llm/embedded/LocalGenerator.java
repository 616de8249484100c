package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;

/**
 * What the embedded generators share, written once: a fixed name and {@link Locality#LOCAL} (the
 * model runs in this process, so private text never leaves it).
 */
abstract class LocalGenerator implements TextGenerator {

  private final String name;

  LocalGenerator(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Locality locality() {
    return Locality.LOCAL;
  }
}
