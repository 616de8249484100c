package dev.secpe.core.secret;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The labelled detector recall set, {@value #RESOURCE} (written by {@link RecallSetGenerator}):
 * one JSON object a line, {@code {"family", "source", "text", "spans": [{"kind", "start", "end",
 * "value"?}]}}. Offsets are Java {@code String} indices (UTF-16 code units) into {@code text}; a
 * span's {@code value}, where given, is the canonical value a detector should name the secret by.
 * A line with no span is a near miss: nothing in it may be flagged. {@code family} is {@code
 * KIND/SPELLING}: the kind it tests and the way it is written.
 */
record RecallSet(List<Item> items) {

  static final String RESOURCE = "/dev/secpe/core/secret/detector-recall.jsonl";

  RecallSet {
    items = List.copyOf(items);
  }

  /** One labelled spelling. */
  record Item(String family, String source, String text, List<Span> spans) {
    Item {
      spans = List.copyOf(spans);
    }

    /** The kind a family tests: what precedes the slash. */
    String familyKind() {
      return family.substring(0, family.indexOf('/'));
    }
  }

  /** One secret in a text; {@code value} is null where the set does not say it. */
  record Span(String kind, int start, int end, String value) {}

  /** The set shipped as a test resource. */
  static RecallSet load() {
    try (InputStream in =
        Objects.requireNonNull(RecallSet.class.getResourceAsStream(RESOURCE), RESOURCE)) {
      return parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static RecallSet parse(InputStream in) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Item> out = new ArrayList<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode o = json.readTree(line);
      String text = o.get("text").asText();
      List<Span> spans = new ArrayList<>();
      for (JsonNode s : o.get("spans")) {
        int start = s.get("start").asInt();
        int end = s.get("end").asInt();
        if (start < 0 || end <= start || end > text.length()) {
          throw new IllegalStateException("line " + n + ": span [" + start + ", " + end + ") outside the text");
        }
        spans.add(
            new Span(s.get("kind").asText(), start, end, s.has("value") ? s.get("value").asText() : null));
      }
      String family = o.get("family").asText();
      if (family.indexOf('/') <= 0) {
        throw new IllegalStateException("line " + n + ": family '" + family + "' is not KIND/SPELLING");
      }
      out.add(new Item(family, o.get("source").asText(), text, spans));
    }
    return new RecallSet(out);
  }
}
