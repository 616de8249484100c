package dev.secpe.core;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The output of a run: synthetic texts with labels and provenance. Immutable.
 *
 * <p>{@link #writeJsonl(Path)} writes one JSON object per line: {@code id}, {@code text}, {@code
 * label} (only when labelled), {@code round}, {@code parents} and {@code operator}. The text
 * field is named {@code text} and the label field {@code label}, so the file reads back with the
 * default {@link dev.secpe.core.io.DatasetReader}.
 */
public final class SyntheticDataset {

  private static final JsonFactory JSON = new JsonFactory();

  private final List<SyntheticText> texts;

  private SyntheticDataset(List<SyntheticText> texts) {
    this.texts = texts;
  }

  /**
   * A dataset of the given texts.
   *
   * @throws IllegalArgumentException if an id repeats
   */
  public static SyntheticDataset of(List<SyntheticText> texts) {
    List<SyntheticText> copy = List.copyOf(Objects.requireNonNull(texts, "texts"));
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < copy.size(); i++) {
      if (!ids.add(copy.get(i).id())) {
        throw new IllegalArgumentException(
            "synthetic dataset: duplicate id '" + copy.get(i).id() + "' at index " + i);
      }
    }
    return new SyntheticDataset(copy);
  }

  /** The synthetic texts (unmodifiable). */
  public List<SyntheticText> records() {
    return texts;
  }

  /** The plain texts in order. */
  public List<String> texts() {
    return texts.stream().map(SyntheticText::text).toList();
  }

  /** The number of texts. */
  public int size() {
    return texts.size();
  }

  /** Writes the dataset as JSON lines (UTF-8) to {@code file}, replacing it. */
  public void writeJsonl(Path file) {
    try (OutputStream out = Files.newOutputStream(file)) {
      writeJsonl(out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write synthetic dataset to " + file, e);
    }
  }

  /** Writes the dataset as JSON lines (UTF-8) to {@code out}; does not close it. */
  public void writeJsonl(OutputStream out) {
    try {
      for (SyntheticText t : texts) {
        JsonGenerator g = JSON.createGenerator(new NonClosing(out), JsonEncoding.UTF8);
        g.writeStartObject();
        g.writeStringField("id", t.id());
        g.writeStringField("text", t.text());
        if (t.label().isPresent()) {
          g.writeStringField("label", t.label().get().name());
        }
        g.writeNumberField("round", t.provenance().round());
        g.writeArrayFieldStart("parents");
        for (String p : t.provenance().parentIds()) {
          g.writeString(p);
        }
        g.writeEndArray();
        g.writeStringField("operator", t.provenance().operator());
        g.writeEndObject();
        g.close();
        out.write('\n');
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write synthetic dataset", e);
    }
  }

  @Override
  public String toString() {
    return "SyntheticDataset[" + texts.size() + " texts]";
  }

  private static final class NonClosing extends FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
