package dev.secpe.core.report;

import dev.secpe.llm.Locality;
import java.util.Objects;

/**
 * A model or service a run used.
 *
 * @param role e.g. "generator", "embedder", "secret-detector"
 * @param name the provider's name, e.g. "all-minilm-l6-v2"
 * @param version its version (model revision, library version), or "unknown"
 * @param locality where it ran
 */
public record ProviderInfo(String role, String name, String version, Locality locality) {

  /** Validates. */
  public ProviderInfo {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(locality, "locality");
  }
}
