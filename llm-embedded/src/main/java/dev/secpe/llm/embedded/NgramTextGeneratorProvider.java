package dev.secpe.llm.embedded;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextGeneratorProvider;
import java.nio.file.Path;

/**
 * Provider "embedded-ngram" ({@link Locality#LOCAL}) of {@link NgramTextGenerator}. It needs
 * PUBLIC training text: config key "corpus" (a JSONL or plain-text file, optionally gzipped; see
 * "text-field", default "text", and optional "label-field") or "model" (a file written by {@link
 * NgramTextGenerator#save(Path)}). Optional: "order" (2-4), "threads", "seed", "min-count",
 * "label-weight", "keyword-boost", "rewrite-mask-probability".
 */
public final class NgramTextGeneratorProvider extends LocalProvider implements TextGeneratorProvider {

  /** Creates the provider (cheap). */
  public NgramTextGeneratorProvider() {
    super(NgramTextGenerator.NAME, CorpusReader.withOptions("order", "threads", "seed", "min-count",
        "label-weight", "keyword-boost", "rewrite-mask-probability", "model"));
  }

  @Override
  public TextGenerator create(ProviderConfig config) {
    NgramTextGenerator.Builder b = NgramTextGenerator.builder();
    ConfigValues.intValue(config, "order").ifPresent(b::order);
    ConfigValues.intValue(config, "threads").ifPresent(b::threads);
    ConfigValues.longValue(config, "seed").ifPresent(b::seed);
    ConfigValues.intValue(config, "min-count").ifPresent(b::minCount);
    ConfigValues.doubleValue(config, "label-weight").ifPresent(b::labelWeight);
    ConfigValues.doubleValue(config, "keyword-boost").ifPresent(b::keywordBoost);
    ConfigValues.doubleValue(config, "rewrite-mask-probability")
        .ifPresent(b::rewriteMaskProbability);
    var corpus = config.get("corpus");
    var model = config.get("model");
    if (corpus.isPresent() == model.isPresent()) {
      throw new IllegalArgumentException(
          "embedded-ngram needs exactly one of the config keys 'corpus' (a JSONL or text file of"
              + " PUBLIC text) and 'model' (a saved model), got " + config);
    }
    if (model.isPresent()) {
      return b.load(Path.of(model.get())).build();
    }
    CorpusReader.Corpus c = CorpusReader.read(Path.of(corpus.get()), config);
    return b.train(c.texts(), c.labels()).build();
  }
}
