package dev.secpe.llm.embedded;

import dev.secpe.llm.spi.ProviderConfig;
import java.util.Optional;

/** Typed reads of {@link ProviderConfig} values, with errors that name the key and value. */
final class ConfigValues {
  private ConfigValues() {}

  static Optional<Integer> intValue(ProviderConfig config, String key) {
    return config.get(key).map(v -> {
      try {
        return Integer.parseInt(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " must be an integer, got " + key + "=" + v);
      }
    });
  }

  static Optional<Long> longValue(ProviderConfig config, String key) {
    return config.get(key).map(v -> {
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " must be an integer, got " + key + "=" + v);
      }
    });
  }

  static Optional<Double> doubleValue(ProviderConfig config, String key) {
    return config.get(key).map(v -> {
      try {
        return Double.parseDouble(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " must be a number, got " + key + "=" + v);
      }
    });
  }
}
