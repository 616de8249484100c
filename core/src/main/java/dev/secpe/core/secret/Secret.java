package dev.secpe.core.secret;

import java.io.Serializable;
import java.util.Objects;

/**
 * One secret s_j (SecPE Definition 3.1), identified without its value: {@code id} is a keyed hash
 * of the kind and normalised value (see {@link SecretIds}), so printing or logging a {@code
 * Secret} never reveals what it protects. The table of secrets a scan produced is private data
 * (which records hold which secret): keep it in memory, never write it to a report.
 *
 * @param id the keyed hash id, e.g. "email:3fa2c1d09b7e4410"
 * @param kind the detector's kind, e.g. "email", "phone", "word"
 */
public record Secret(String id, String kind) implements Serializable {

  /** Validates eagerly. */
  public Secret {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    if (id.isBlank() || kind.isBlank()) {
      throw new IllegalArgumentException("secret id and kind must not be blank");
    }
  }
}
