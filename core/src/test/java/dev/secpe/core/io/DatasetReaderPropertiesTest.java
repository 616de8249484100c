package dev.secpe.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.secpe.core.Provenance;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.SyntheticDataset;
import dev.secpe.core.SyntheticText;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

class DatasetReaderPropertiesTest {

  @Property(tries = 200)
  void syntheticJsonlRoundTripsAnyText(
      @ForAll @Size(min = 1, max = 8) List<@StringLength(min = 1, max = 80) String> texts) {
    for (String t : texts) {
      Assume.that(!t.isBlank());
    }
    List<SyntheticText> records = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      records.add(new SyntheticText("s" + i, texts.get(i), Optional.empty(), Provenance.initial()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SyntheticDataset.of(records).writeJsonl(out);
    PublicCorpus back =
        DatasetReader.defaults()
            .readPublic(new ByteArrayInputStream(out.toByteArray()), "mem", DatasetReader.Format.JSONL);
    assertThat(back.texts()).containsExactlyElementsOf(texts);
  }

  /** Every kind of bad line that carries the private string; none may echo it. */
  @Property(tries = 300)
  void errorMessagesNeverQuoteContent(
      @ForAll @StringLength(min = 6, max = 60) String secret, @ForAll @IntRange(min = 0, max = 5) int defect) {
    Assume.that(!secret.isBlank());
    String q = new String(JsonStringEncoder.getInstance().quoteAsString(secret));
    String line =
        switch (defect) {
          case 0 -> "{\"text\": \"" + q + "\""; // unterminated object
          case 1 -> "{\"text\": {\"x\": \"" + q + "\"}}"; // wrong type
          case 2 -> "{\"body\": \"" + q + "\"}"; // missing field
          case 3 -> "[\"" + q + "\"]"; // not an object
          case 4 -> "{\"text\": \"ok\", \"label\": [\"" + q + "\"]}"; // bad label
          default -> "{\"text\": \"" + q + "\"} \"" + q + "\""; // trailing tokens
        };
    byte[] data = ("{\"text\": \"fine\", \"label\": \"a\"}\n" + line + "\n").getBytes(StandardCharsets.UTF_8);
    Throwable e =
        catchThrowable(
            () ->
                DatasetReader.builder()
                    .labelField("label")
                    .build()
                    .readPrivate(new ByteArrayInputStream(data), "in.jsonl", DatasetReader.Format.JSONL));
    assertThat(e).isInstanceOf(DatasetFormatException.class);
    String template =
        "in.jsonl: line 2: not valid JSON (column 999) field 'text' missing, null or blank is not a string (got"
            + " object) expected a JSON object, got array field 'label' missing or not a non-blank string,"
            + " integer or boolean (got array)";
    Assume.that(!template.contains(secret));
    assertThat(e.getMessage()).doesNotContain(secret).startsWith("in.jsonl: line 2: ");
    assertThat(e.getCause()).isNull();
  }
}
