package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Provider "embedded-guided-splice" ({@link Locality#LOCAL}) of {@link GuidedSpliceGenerator}. It
 * needs PUBLIC text: config key "corpus" (a JSONL or plain-text file, optionally gzipped; see
 * "text-field", default "text", and optional "label-field"). Optional: "seed", "candidates".
 */
public final class GuidedSpliceGeneratorProvider implements TextGeneratorProvider {

  /** Creates the provider (cheap). */
  public GuidedSpliceGeneratorProvider() {}

  @Override
  public String name() {
    return GuidedSpliceGenerator.NAME;
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    GuidedSpliceGenerator.Builder b = GuidedSpliceGenerator.builder();
    ConfigValues.longValue(config, "seed").ifPresent(b::seed);
    ConfigValues.intValue(config, "candidates").ifPresent(b::candidates);
    String corpus =
        config.get("corpus")
            .orElseThrow(() -> new IllegalArgumentException(
                "embedded-guided-splice needs the config key 'corpus' (a JSONL or text file of PUBLIC text)"));
    CorpusReader.Corpus c =
        CorpusReader.read(
            Path.of(corpus), config.get("text-field").orElse("text"), config.get("label-field").orElse(null));
    return b.train(c.texts(), c.labels()).build();
  }

  @Override
  public Optional<Set<String>> options() {
    return Optional.of(Set.of("seed", "candidates", "corpus", "text-field", "label-field"));
  }
}
