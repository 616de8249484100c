package dev.secpe.llm;

import java.util.List;
import java.util.Objects;

/**
 * An embedder that forwards every call to a delegate; decorators (caching, timeouts) extend it
 * and override what they change. Its locality is the delegate's: wrapping changes nothing about
 * where the text goes.
 */
public abstract class ForwardingTextEmbedder implements TextEmbedder {

  private final TextEmbedder delegate;

  /** Forwards to {@code delegate}. */
  protected ForwardingTextEmbedder(TextEmbedder delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The embedder this one wraps. */
  public TextEmbedder delegate() {
    return delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public boolean normalized() {
    return delegate.normalized();
  }

  @Override
  public Locality locality() {
    return delegate.locality();
  }

  @Override
  public float[][] embed(List<String> texts) {
    return delegate.embed(texts);
  }

  /** Closes the delegate. */
  @Override
  public void close() {
    delegate.close();
  }
}
