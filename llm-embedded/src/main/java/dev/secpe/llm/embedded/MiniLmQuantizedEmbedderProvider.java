package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;

/**
 * Provider "all-minilm-l6-v2-q" ({@link Locality#LOCAL}) of {@link MiniLmEmbedder} with the
 * int8-quantised model ({@link MiniLmEmbedder.Model#INT8}): faster on CPUs than the float32
 * "all-minilm-l6-v2", with vectors close to but not equal to its. Same optional config keys as
 * {@link MiniLmEmbedderProvider}: "threads", "batch-size", "max-sequence-length", except that
 * "batch-size" can only be 1 (this model runs each text alone; see {@link
 * MiniLmEmbedder.Model#INT8}). Construction is cheap; {@link #create(ProviderConfig)} loads the
 * model.
 */
public final class MiniLmQuantizedEmbedderProvider extends LocalProvider implements TextEmbedderProvider {

  /** Creates the provider (cheap). */
  public MiniLmQuantizedEmbedderProvider() {
    super(MiniLmEmbedder.QUANTIZED_NAME, MiniLmEmbedderProvider.OPTIONS);
  }

  @Override
  public TextEmbedder create(ProviderConfig config) {
    return MiniLmEmbedderProvider.create(MiniLmEmbedder.Model.INT8, config);
  }
}
