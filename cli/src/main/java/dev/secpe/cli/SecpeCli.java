package dev.secpe.cli;

import dev.secpe.natives.NativeCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/secpe}: the privacy calculator and, as the library grows, the
 * run, evaluate, demo, bench and providers commands.
 *
 * <p>Contract: JSON on stdout and exit code 0 on success; on bad input, exit code 2 and a
 * single-line error on stderr (never a stack trace).
 */
@Command(
    name = "secpe",
    mixinStandardHelpOptions = true,
    versionProvider = SecpeCli.Version.class,
    description = "Differentially private synthetic text by private evolution.",
    subcommands = {
      PrivacyCommand.class,
      RunCommand.class,
      DemoCommand.class,
      EvaluateCommand.class,
      BenchCommand.class,
      ProvidersCommand.class
    })
public final class SecpeCli {

  private SecpeCli() {}

  /** Builds the configured command line; tests call this instead of {@link #main}. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new SecpeCli());
    cl.setParameterExceptionHandler(CliErrors::onParameterException);
    cl.setExecutionExceptionHandler(CliErrors::onExecutionException);
    return cl;
  }

  public static void main(String[] args) {
    configureTerminal();
    System.exit(commandLine().execute(args));
  }

  /**
   * Keeps JLine (the progress bars' terminal) from writing its native library into the temporary
   * directory, where a killed run left it with its lock file: its JNI provider and native pipe
   * helpers are turned off (the bars need neither), and should any part still load the library it
   * goes to the per-user native cache ({@code ~/.cache/secpe/native/jline}), not to {@code /tmp}.
   * Settings the user gave win.
   */
  static void configureTerminal() {
    System.getProperties().putIfAbsent("org.jline.terminal.jni", "false");
    System.getProperties().putIfAbsent("org.jline.terminal.exec.redirectPipeCreationMode", "reflection");
    System.getProperties().putIfAbsent("org.jline.terminal.pty.fileDescriptorCreationMode", "reflection");
    if (System.getProperty("jline.tmpdir") == null) {
      try {
        Path dir = NativeCache.root().resolve("jline");
        Files.createDirectories(dir);
        System.setProperty("jline.tmpdir", dir.toString());
      } catch (IOException | RuntimeException e) {
        // no cache directory: JLine's native part is off in any case
      }
    }
  }

  /** Reports the version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = SecpeCli.class.getPackage().getImplementationVersion();
      return new String[] {"secpe " + (v == null ? "dev" : v)};
    }
  }
}
