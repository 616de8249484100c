package dev.secpe.llm.spi;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.Objects;

/**
 * A base for a {@link TextEmbedder} whose model runs in this process, so that the texts it embeds
 * (private records among them) never leave it: its {@link #locality()} is {@link Locality#LOCAL},
 * said once here by the choice of this class, and its name and dimension are fixed when it is made.
 * A subclass embeds ({@link #embed}) and says whether its vectors have unit norm ({@link
 * #normalized()}).
 *
 * <p>Extend it only for a model in this process. An embedder that sends text anywhere else (an HTTP
 * endpoint, a sidecar, another host) implements {@link TextEmbedder} itself and says {@link
 * Locality#REMOTE}, or extends {@link BlockingTextEmbedder}, which is {@code REMOTE} unless told
 * otherwise. Implementing {@link TextEmbedder} directly is as good for a local model; this class
 * only saves writing the three accessors.
 */
public abstract class InProcessEmbedder implements TextEmbedder {

  private final String name;
  private final int dimension;

  /**
   * An embedder named {@code name} whose vectors have {@code dimension} values.
   *
   * @throws IllegalArgumentException if {@code name} is blank or {@code dimension < 1}
   */
  protected InProcessEmbedder(String name, int dimension) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be >= 1, got dimension=" + dimension);
    }
    this.name = name;
    this.dimension = dimension;
  }

  /** The name given when it was made. */
  @Override
  public final String name() {
    return name;
  }

  /** The dimension given when it was made. */
  @Override
  public final int dimension() {
    return dimension;
  }

  /** {@link Locality#LOCAL}: the model runs in this process. */
  @Override
  public final Locality locality() {
    return Locality.LOCAL;
  }
}
