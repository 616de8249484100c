package dev.secpe.llm.spi;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Immutable string settings handed to a provider's {@code create} (e.g. "base-url", "model",
 * "api-key-env", "concurrency"). {@link #toString()} never prints values whose key mentions a key,
 * token, secret, password, auth or credential.
 *
 * @param values the settings
 */
public record ProviderConfig(Map<String, String> values) {

  /** Copies the map. */
  public ProviderConfig {
    values = Map.copyOf(values);
  }

  /** An empty configuration. */
  public static ProviderConfig empty() {
    return new ProviderConfig(Map.of());
  }

  /** A configuration of the given pairs. */
  public static ProviderConfig of(Map<String, String> values) {
    return new ProviderConfig(values);
  }

  /** The value of {@code key}, if set. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  @Override
  public String toString() {
    Map<String, String> shown = new TreeMap<>();
    values.forEach(
        (k, v) -> {
          String lk = k.toLowerCase(Locale.ROOT);
          boolean sensitive = lk.contains("key") || lk.contains("token") || lk.contains("secret")
              || lk.contains("password") || lk.contains("auth") || lk.contains("credential");
          shown.put(k, sensitive ? "***" : v);
        });
    return "ProviderConfig" + shown;
  }
}
