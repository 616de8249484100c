package dev.secpe.llm.embedded;

import dev.secpe.llm.spi.ProviderConfig;
import java.util.Optional;
import java.util.function.Function;

/** Typed reads of {@link ProviderConfig} values, with errors that name the key and value. */
final class ConfigValues {
  private ConfigValues() {}

  static Optional<Integer> intValue(ProviderConfig config, String key) {
    return parsed(config, key, Integer::parseInt, "an integer");
  }

  static Optional<Long> longValue(ProviderConfig config, String key) {
    return parsed(config, key, Long::parseLong, "an integer");
  }

  static Optional<Double> doubleValue(ProviderConfig config, String key) {
    return parsed(config, key, Double::parseDouble, "a number");
  }

  private static <T> Optional<T> parsed(
      ProviderConfig config, String key, Function<String, T> parse, String kind) {
    return config.get(key).map(v -> {
      try {
        return parse.apply(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " must be " + kind + ", got " + key + "=" + v);
      }
    });
  }
}
