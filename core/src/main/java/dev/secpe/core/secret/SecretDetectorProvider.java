package dev.secpe.core.secret;

import dev.secpe.llm.spi.ProviderConfig;

/**
 * A light factory for a {@link SecretDetector}, discovered with {@link java.util.ServiceLoader}
 * (declare it in {@code META-INF/services/dev.secpe.core.secret.SecretDetectorProvider}). Look
 * providers up with {@link SecretDetectors#provider(String)}.
 *
 * <p>Built in: "pii-regex" (config {@code kinds}: comma-separated {@link PiiKind} names, all by
 * default), "names" ({@link NameDetector}, no config) and "dictionary" (config {@code terms}: comma-separated terms, or {@code terms-file}: a
 * UTF-8 file of one term per line; {@code kind}: the secret kind, "term" by default).
 */
public interface SecretDetectorProvider {

  /** Unique name users select the provider by, e.g. "pii-regex". */
  String name();

  /** Creates a detector; invalid configuration is an {@link IllegalArgumentException}. */
  SecretDetector create(ProviderConfig config);
}
