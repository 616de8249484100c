package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;
import java.util.Set;

/**
 * Provider "all-minilm-l6-v2" ({@link Locality#LOCAL}) of {@link MiniLmEmbedder} with the float32
 * model. Optional config keys: "threads", "batch-size", "max-sequence-length" (positive integers).
 * Construction is cheap; {@link #create(ProviderConfig)} loads the model. The int8-quantised
 * model is the separate provider {@link MiniLmQuantizedEmbedderProvider}.
 */
public final class MiniLmEmbedderProvider extends LocalProvider implements TextEmbedderProvider {

  /** The config keys {@link #create(MiniLmEmbedder.Model, ProviderConfig)} reads. */
  static final Set<String> OPTIONS = Set.of("threads", "batch-size", "max-sequence-length");

  /** Creates the provider (cheap). */
  public MiniLmEmbedderProvider() {
    super(MiniLmEmbedder.NAME, OPTIONS);
  }

  @Override
  public TextEmbedder create(ProviderConfig config) {
    return create(MiniLmEmbedder.Model.FP32, config);
  }

  /** Builds an embedder of {@code model} from the config keys documented on this class. */
  static MiniLmEmbedder create(MiniLmEmbedder.Model model, ProviderConfig config) {
    MiniLmEmbedder.Builder b = MiniLmEmbedder.builder().model(model);
    ConfigValues.intValue(config, "threads").ifPresent(b::threads);
    ConfigValues.intValue(config, "batch-size").ifPresent(b::batchSize);
    ConfigValues.intValue(config, "max-sequence-length").ifPresent(b::maxSequenceLength);
    return b.build();
  }
}
