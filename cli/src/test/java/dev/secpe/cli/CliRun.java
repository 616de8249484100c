package dev.secpe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * Runs {@code secpe} in this JVM as the tests do: a fresh command line each time, its stdout and
 * stderr captured. The one place the tests build and run the CLI in-process.
 */
final class CliRun {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CliRun() {}

  /** The exit code and what was written to stdout and stderr. */
  record Outcome(int code, String out, String err) {
    /** stdout read as JSON (for {@code --json} and the {@code privacy} commands). */
    JsonNode json() throws Exception {
      return JSON.readTree(out);
    }
  }

  static Outcome execute(List<String> args) {
    return execute(args.toArray(new String[0]));
  }

  static Outcome execute(String... args) {
    return execute(cl -> {}, args);
  }

  /** Runs {@code args} after {@code setup} saw the command line (to put test providers in place). */
  static Outcome execute(Consumer<CommandLine> setup, String... args) {
    CommandLine cl = SecpeCli.commandLine();
    setup.accept(cl);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }
}
