package dev.secpe.evolution;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.List;
import java.util.function.IntSupplier;

/** Wraps an embedder to change its locality or, for error tests, its reported dimension. */
class ForwardingEmbedder implements TextEmbedder {
  private final TextEmbedder inner;
  private final Locality locality;
  private final IntSupplier dimension;

  ForwardingEmbedder(TextEmbedder inner, Locality locality, IntSupplier dimension) {
    this.inner = inner;
    this.locality = locality;
    this.dimension = dimension;
  }

  @Override
  public String name() {
    return "forwarding-" + inner.name();
  }

  @Override
  public int dimension() {
    return dimension == null ? inner.dimension() : dimension.getAsInt();
  }

  @Override
  public boolean normalized() {
    return inner.normalized();
  }

  @Override
  public Locality locality() {
    return locality;
  }

  @Override
  public float[][] embed(List<String> texts) {
    return inner.embed(texts);
  }
}
