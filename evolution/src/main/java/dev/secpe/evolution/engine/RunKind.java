package dev.secpe.evolution.engine;

import java.util.Objects;

/**
 * What a run's checkpoint and its privacy-journal entries say of the run beyond its method and
 * configuration digest.
 *
 * @param detector the digest of the secret detector's whole configuration ({@code
 *     SecretDetectors.digest}: terms, patterns, options, rules version), empty for a method without
 *     one; a resume with another is refused, whatever the detector's display name
 */
public record RunKind(String detector) {

  /** A method without a secret detector (Aug-PE, DPGA, CTCL). */
  public static final RunKind NO_DETECTOR = new RunKind("");

  /** Checks the values. */
  public RunKind {
    Objects.requireNonNull(detector, "detector");
  }
}
