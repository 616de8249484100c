package dev.secpe.llm.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.llm.spi.ProviderConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Reads a training corpus of public text: JSONL (one object per line; the text in {@code
 * textField}, an optional label in {@code labelField}) or plain text (one document per non-blank
 * line). Gzip when the name ends in ".gz". JSONL when the name contains ".jsonl" or ".json".
 */
final class CorpusReader {
  private CorpusReader() {}

  /** Documents and labels (null entries when unlabelled), in file order. */
  record Corpus(List<String> texts, List<String> labels) {}

  /** The config keys a provider's corpus is named by: "corpus", "text-field", "label-field". */
  static final Set<String> OPTIONS = Set.of("corpus", "text-field", "label-field");

  /** The config keys of a provider that reads a corpus: its {@code own} and {@link #OPTIONS}. */
  static Set<String> withOptions(String... own) {
    Set<String> all = new HashSet<>(OPTIONS);
    all.addAll(List.of(own));
    return all;
  }

  /**
   * The corpus a provider's config names: the file "corpus" (required: an {@link
   * IllegalArgumentException} naming {@code provider} when it is missing), read as {@link
   * #read(Path, ProviderConfig)}.
   */
  static Corpus read(ProviderConfig config, String provider) {
    String corpus = config.get("corpus").orElseThrow(() -> new IllegalArgumentException(
        provider + " needs the config key 'corpus' (a JSONL or text file of PUBLIC text)"));
    return read(Path.of(corpus), config);
  }

  /** {@code file} with the config's "text-field" (default "text") and "label-field" (default none). */
  static Corpus read(Path file, ProviderConfig config) {
    return read(file, config.get("text-field").orElse("text"), config.get("label-field").orElse(null));
  }

  static Corpus read(Path file, String textField, String labelField) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("corpus file does not exist, got corpus=" + file);
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean json = name.contains(".jsonl") || name.contains(".json");
    List<String> texts = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    ObjectMapper mapper = new ObjectMapper();
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int lineNumber = 0;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        if (!json) {
          texts.add(line.strip());
          labels.add(null);
          continue;
        }
        JsonNode node;
        try {
          node = mapper.readTree(line);
        } catch (IOException e) {
          // The message names the place, never the content.
          throw new IllegalArgumentException(
              "corpus " + file + " line " + lineNumber + " is not valid JSON", null);
        }
        JsonNode text = node.get(textField);
        if (text == null || !text.isTextual()) {
          throw new IllegalArgumentException(
              "corpus " + file + " line " + lineNumber + " has no text field, got text-field="
                  + textField);
        }
        texts.add(text.asText());
        JsonNode label = labelField == null ? null : node.get(labelField);
        labels.add(label == null || label.isNull() ? null : label.asText());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read corpus " + file, e);
    }
    return new Corpus(texts, labels);
  }
}
