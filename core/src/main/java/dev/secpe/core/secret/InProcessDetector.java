package dev.secpe.core.secret;

import dev.secpe.llm.Locality;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the built-in detectors share, written once: they run in this JVM ({@link Locality#LOCAL}),
 * are serializable (a Spark executor runs them where the records are), and {@link #detect} checks
 * its text and returns an unmodifiable copy of what {@link #find} collected.
 */
abstract class InProcessDetector implements SecretDetector, Serializable {

  private static final long serialVersionUID = 1L;

  private final String name;

  InProcessDetector(String name) {
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

  @Override
  public final List<SecretMatch> detect(String text) {
    Objects.requireNonNull(text, "text");
    List<SecretMatch> out = new ArrayList<>();
    find(text, out);
    return List.copyOf(out);
  }

  /** Adds the secrets found in {@code text} to {@code out}, in order of start position. */
  abstract void find(String text, List<SecretMatch> out);
}
