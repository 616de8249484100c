package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;

/**
 * Provider "embedded-guided-splice" ({@link Locality#LOCAL}) of {@link GuidedSpliceGenerator}. It
 * needs PUBLIC text: config key "corpus" (a JSONL or plain-text file, optionally gzipped; see
 * "text-field", default "text", and optional "label-field"). Optional: "seed", "candidates".
 */
public final class GuidedSpliceGeneratorProvider extends LocalProvider implements TextGeneratorProvider {

  /** Creates the provider (cheap). */
  public GuidedSpliceGeneratorProvider() {
    super(GuidedSpliceGenerator.NAME, CorpusReader.withOptions("seed", "candidates"));
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    GuidedSpliceGenerator.Builder b = GuidedSpliceGenerator.builder();
    ConfigValues.longValue(config, "seed").ifPresent(b::seed);
    ConfigValues.intValue(config, "candidates").ifPresent(b::candidates);
    CorpusReader.Corpus c = CorpusReader.read(config, "embedded-guided-splice");
    return b.train(c.texts(), c.labels()).build();
  }
}
