package dev.secpe.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Writes one JSON object per command on stdout (the CLI contract). A value that is not a number
 * (NaN: a figure that could not be computed) is written as {@code null}, never as "NaN": as a
 * field, in an array, in a tree or in a {@code double[]}, by every command and file that writes
 * with {@link #MAPPER} (JSON has no NaN).
 */
final class JsonOut {

  /** The mapper every JSON output of the CLI is written with: NaN is written as null. */
  static final ObjectMapper MAPPER =
      new ObjectMapper(JsonFactory.builder().addDecorator((factory, gen) -> new NanAsNull(gen)).build());

  /** A generator that writes NaN as {@code null}; every other value as it is. */
  private static final class NanAsNull extends JsonGeneratorDelegate {

    NanAsNull(JsonGenerator d) {
      super(d, false);
    }

    @Override
    public void writeNumber(double v) throws IOException {
      if (!nullIfNaN(v)) {
        super.writeNumber(v);
      }
    }

    @Override
    public void writeNumber(float v) throws IOException {
      if (!nullIfNaN(v)) {
        super.writeNumber(v);
      }
    }

    /** Writes null and says so where {@code v} is NaN. */
    private boolean nullIfNaN(double v) throws IOException {
      if (Double.isNaN(v)) {
        writeNull();
        return true;
      }
      return false;
    }

    @Override
    public void writeArray(double[] array, int offset, int length) throws IOException {
      writeStartArray(array, length);
      for (int i = offset; i < offset + length; i++) {
        writeNumber(array[i]);
      }
      writeEndArray();
    }
  }

  private JsonOut() {}

  /** Prints the object and returns exit code 0. */
  static int print(CommandSpec spec, Map<String, ?> object) {
    return printValue(spec, object);
  }

  /** Prints the JSON tree and returns exit code 0. */
  static int print(CommandSpec spec, JsonNode tree) {
    return printValue(spec, tree);
  }

  private static int printValue(CommandSpec spec, Object value) {
    PrintWriter out = spec.commandLine().getOut();
    out.println(write(value));
    out.flush();
    return 0;
  }

  /** A JSON text this program made (a journal's cost, for example) as a tree. */
  static JsonNode read(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot read JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** {@code value} as compact JSON, NaN as null. */
  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
    }
  }
}
