package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import java.util.Optional;
import java.util.Set;

/**
 * What every provider of this module shares, said once: it is named by its model's constant, runs
 * in this process ({@link Locality#LOCAL}) and lists the config keys it reads.
 */
abstract class LocalProvider {
  private final String name;
  private final Set<String> options;

  LocalProvider(String name, Set<String> options) {
    this.name = name;
    this.options = Set.copyOf(options);
  }

  /** The name users select this provider by. */
  public String name() {
    return name;
  }

  /** {@link Locality#LOCAL}: the model runs in this process. */
  public Locality locality() {
    return Locality.LOCAL;
  }

  /** The config keys this provider reads. */
  public Optional<Set<String>> options() {
    return Optional.of(options);
  }
}
