package dev.secpe.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Runs {@code secpe} in this JVM as the tests do: stdout dropped, stderr kept. */
final class CliRun {

  private CliRun() {}

  /** The exit code and what was written to stderr. */
  record Outcome(int code, String err) {}

  static Outcome execute(List<String> args) {
    CommandLine cl = SecpeCli.commandLine();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(new StringWriter()));
    cl.setErr(new PrintWriter(err));
    return new Outcome(cl.execute(args.toArray(new String[0])), err.toString());
  }
}
