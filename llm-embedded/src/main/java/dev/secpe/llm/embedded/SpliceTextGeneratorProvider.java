package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;

/**
 * Provider "embedded-splice" ({@link Locality#LOCAL}) of {@link SpliceTextGenerator}. It needs
 * PUBLIC text: config key "corpus" (a JSONL or plain-text file, optionally gzipped; see
 * "text-field", default "text", and optional "label-field"). Optional: "seed",
 * "jump-probability", "line-mask-scale".
 */
public final class SpliceTextGeneratorProvider extends LocalProvider implements TextGeneratorProvider {

  /** Creates the provider (cheap). */
  public SpliceTextGeneratorProvider() {
    super(SpliceTextGenerator.NAME,
        CorpusReader.withOptions("seed", "jump-probability", "line-mask-scale"));
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    SpliceTextGenerator.Builder b = SpliceTextGenerator.builder();
    ConfigValues.longValue(config, "seed").ifPresent(b::seed);
    ConfigValues.doubleValue(config, "jump-probability").ifPresent(b::jumpProbability);
    ConfigValues.doubleValue(config, "line-mask-scale").ifPresent(b::lineMaskScale);
    CorpusReader.Corpus c = CorpusReader.read(config, "embedded-splice");
    return b.train(c.texts(), c.labels()).build();
  }
}
