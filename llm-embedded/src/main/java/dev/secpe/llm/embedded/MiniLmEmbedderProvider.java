package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;

/**
 * Provider "all-minilm-l6-v2" ({@link Locality#LOCAL}) of {@link MiniLmEmbedder}. Optional config
 * keys: "threads", "batch-size", "max-sequence-length" (positive integers). Construction is
 * cheap; {@link #create(ProviderConfig)} loads the model.
 */
public final class MiniLmEmbedderProvider implements TextEmbedderProvider {

  /** Creates the provider (cheap). */
  public MiniLmEmbedderProvider() {}

  @Override
  public String name() {
    return MiniLmEmbedder.NAME;
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextEmbedder create(ProviderConfig config) {
    MiniLmEmbedder.Builder b = MiniLmEmbedder.builder();
    ConfigValues.intValue(config, "threads").ifPresent(b::threads);
    ConfigValues.intValue(config, "batch-size").ifPresent(b::batchSize);
    ConfigValues.intValue(config, "max-sequence-length").ifPresent(b::maxSequenceLength);
    return b.build();
  }
}
