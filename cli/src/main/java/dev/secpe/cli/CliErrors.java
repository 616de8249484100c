package dev.secpe.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Maps failures to the CLI contract: exit code 2 and one line on stderr for bad input. */
final class CliErrors {

  /** Exit code for bad input. */
  static final int BAD_INPUT = 2;

  /** Exit code for an internal failure (a bug or an environment problem). */
  static final int INTERNAL = 1;

  private CliErrors() {}

  static int onParameterException(ParameterException e, String[] args) {
    PrintWriter err = e.getCommandLine().getErr();
    // picocli starts some messages with its own "Error: ", which our prefix would double.
    String message = oneLine(e.getMessage()).replaceFirst("^Error: ", "");
    if (mixesBudgetForms(args) && message.matches(".*--(p|r|epsilon|delta)=.*")) {
      message += " (a budget is --p with --r, or --epsilon with --delta: the two forms exclude each other)";
    }
    err.println("error: " + message);
    err.flush();
    return BAD_INPUT;
  }

  /** Whether {@code args} name options of both budget forms ({@code --p/--r} and {@code --epsilon/--delta}). */
  static boolean mixesBudgetForms(String[] args) {
    boolean secret = false;
    boolean dp = false;
    for (String a : args) {
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      secret |= name.equals("--p") || name.equals("--r");
      dp |= name.equals("--epsilon") || name.equals("--delta");
    }
    return secret && dp;
  }

  static int onExecutionException(
      Exception e, CommandLine cl, CommandLine.ParseResult parseResult) {
    PrintWriter err = cl.getErr();
    String signal = CloseOnExit.signalled();
    if (signal != null) {
      // A signal stopped the command (closing its generator and embedder, cancelling its run):
      // what failed then is the cancellation, not the caller's input or a bug. The signal handler
      // ends the JVM with 128 + the signal's number once the run has journalled its end.
      err.println("cancelled by SIG" + signal + ": nothing more is drawn; a run that had started is journalled as"
          + " cancelled, and its last checkpoint (if any) can be resumed");
      err.flush();
      CloseOnExit.awaitExit();
    }
    if (e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
      err.println("error: " + oneLine(e.getMessage()));
      err.flush();
      return BAD_INPUT;
    }
    if (e instanceof UncheckedIOException io) {
      // A file that is missing, unreadable, a directory or truncated is the caller's input, not a
      // bug: exit 2 with the path (in the message) and the cause. I/O messages name files and
      // conditions, never record text.
      Throwable cause = io.getCause();
      err.println("error: " + oneLine(io.getMessage())
          + (cause == null || cause.getMessage() == null || io.getMessage().contains(cause.getMessage())
              ? "" : " (" + oneLine(cause.getMessage()) + ")"));
      err.flush();
      return BAD_INPUT;
    }
    err.println("internal error: " + e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()));
    if (System.getenv("SECPE_DEBUG") != null) {
      e.printStackTrace(err);
    }
    err.flush();
    return INTERNAL;
  }

  static String oneLine(String message) {
    return message == null ? "(no message)" : message.replaceAll("\\s*\\R\\s*", " ").trim();
  }
}
