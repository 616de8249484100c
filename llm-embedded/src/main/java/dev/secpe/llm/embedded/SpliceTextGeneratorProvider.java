package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;
import java.nio.file.Path;

/**
 * Provider "embedded-splice" ({@link Locality#LOCAL}) of {@link SpliceTextGenerator}. It needs
 * PUBLIC text: config key "corpus" (a JSONL or plain-text file, optionally gzipped; see
 * "text-field", default "text", and optional "label-field"). Optional: "seed",
 * "jump-probability", "line-mask-scale".
 */
public final class SpliceTextGeneratorProvider implements TextGeneratorProvider {

  /** Creates the provider (cheap). */
  public SpliceTextGeneratorProvider() {}

  @Override
  public String name() {
    return SpliceTextGenerator.NAME;
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    SpliceTextGenerator.Builder b = SpliceTextGenerator.builder();
    ConfigValues.longValue(config, "seed").ifPresent(b::seed);
    ConfigValues.doubleValue(config, "jump-probability").ifPresent(b::jumpProbability);
    ConfigValues.doubleValue(config, "line-mask-scale").ifPresent(b::lineMaskScale);
    String corpus =
        config.get("corpus")
            .orElseThrow(() -> new IllegalArgumentException(
                "embedded-splice needs the config key 'corpus' (a JSONL or text file of PUBLIC text)"));
    CorpusReader.Corpus c =
        CorpusReader.read(
            Path.of(corpus), config.get("text-field").orElse("text"), config.get("label-field").orElse(null));
    return b.train(c.texts(), c.labels()).build();
  }

  @Override
  public java.util.Optional<java.util.Set<String>> options() {
    return java.util.Optional.of(java.util.Set.of("seed", "jump-probability", "line-mask-scale", "corpus", "text-field", "label-field"));
  }
}
