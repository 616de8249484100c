package dev.secpe.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** Writes one JSON object per command on stdout (the CLI contract). */
final class JsonOut {

  static final ObjectMapper MAPPER = new ObjectMapper();

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
  static int print(CommandSpec spec, com.fasterxml.jackson.databind.JsonNode tree) {
    PrintWriter out = spec.commandLine().getOut();
    out.println(tree.toString());
    out.flush();
    return 0;
  }
}
