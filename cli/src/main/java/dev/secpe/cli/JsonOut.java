package dev.secpe.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Writes one JSON object per command on stdout (the CLI contract). A value that is not a number
 * (NaN: a figure that could not be computed) is written as {@code null}, never as "NaN".
 */
final class JsonOut {

  static final ObjectMapper MAPPER =
      new ObjectMapper().registerModule(new SimpleModule().addSerializer(Double.class, new NanAsNull()));

  private static final class NanAsNull extends StdSerializer<Double> {
    private static final long serialVersionUID = 1L;

    NanAsNull() {
      super(Double.class);
    }

    @Override
    public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      if (value.isNaN()) {
        gen.writeNull();
      } else {
        gen.writeNumber(value);
      }
    }
  }

  private JsonOut() {}

  /** Prints the object and returns exit code 0. */
  static int print(CommandSpec spec, Map<String, ?> object) {
    PrintWriter out = spec.commandLine().getOut();
    try {
      out.println(MAPPER.writeValueAsString(object));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
    }
    out.flush();
    return 0;
  }

  /** Prints the JSON tree and returns exit code 0. */
  static int print(CommandSpec spec, JsonNode tree) {
    PrintWriter out = spec.commandLine().getOut();
    out.println(tree.toString());
    out.flush();
    return 0;
  }
}
