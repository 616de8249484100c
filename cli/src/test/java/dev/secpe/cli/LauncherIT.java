package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/secpe} as a script sees it: the commands that run no kernel print their answer and
 * nothing else ({@code 2>&1} stays parseable: no "WARNING: Using incubator modules"), while the
 * commands that run the kernel still get the Vector API's module. Runs the packaged jar
 * ({@code SECPE_NO_BUILD=1}) with the JDK running this test.
 */
class LauncherIT {

  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent(); // cli/ -> repository
  private static final String INCUBATOR = "Using incubator modules";

  record Result(int code, String out, String err) {}

  private static Result secpe(String... args) throws IOException, InterruptedException {
    return secpe(Map.of(), args);
  }

  private static Result secpe(Map<String, String> extraEnv, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ROOT.resolve("bin/secpe").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile());
    Map<String, String> env = pb.environment();
    Path javaBin = Path.of(System.getProperty("java.home"), "bin");
    env.put("PATH", javaBin + ":" + env.getOrDefault("PATH", ""));
    env.put("SECPE_NO_BUILD", "1");
    env.remove("SECPE_VECTOR");
    env.remove("SECPE_JAVA_OPTS");
    env.putAll(extraEnv);
    Path out = Files.createTempFile("secpe-out", ".txt");
    Path err = Files.createTempFile("secpe-err", ".txt");
    try {
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/secpe %s finished", List.of(args)).isTrue();
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** The jar's manifest carries the project's version (the providers report it in every run). */
  @Test
  void versionIsTheProjectsNotDev() throws Exception {
    Result r = secpe("--version");
    assertThat(r.code()).isZero();
    String pom = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
    String version = pom.replaceFirst("(?s).*?<artifactId>secpe-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
    assertThat(r.out().strip()).isEqualTo("secpe " + version);
  }

  @Test
  void providersPrintsItsJsonAndNothingOnStderr() throws Exception {
    Result r = secpe("providers", "--json");
    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).startsWith("{").contains("all-minilm-l6-v2");
  }

  @Test
  void thePrivacyCalculatorAndHelpPrintNothingOnStderr() throws Exception {
    Result calc = secpe("privacy", "secret-to-gdp", "--p", "1e-4", "--r", "1e-3");
    assertThat(calc.code()).isZero();
    assertThat(calc.err()).isEmpty();
    assertThat(calc.out().strip()).isEqualTo("{\"mu\":0.6287841792847917}");

    for (String[] help : List.of(new String[] {"--help"}, new String[] {"run", "--help"},
        new String[] {"bench", "kernel", "--help"}, new String[] {"bench", "accounting", "--help"})) {
      Result h = secpe(help);
      assertThat(h.code()).as(String.join(" ", help)).isZero();
      assertThat(h.err()).as(String.join(" ", help)).isEmpty();
    }
  }

  /**
   * {@code run} and {@code demo} start without the incubator module (at their sizes the Vector API
   * scan gained nothing: docs/guide/performance.md), so a user's log does not open with a JVM
   * warning; the kernel benchmarks keep it, and {@code SECPE_VECTOR=1} asks for it anywhere.
   */
  @Test
  void runStartsWithoutTheIncubatorWarningAndTheKernelBenchmarksKeepTheVectorApi() throws Exception {
    // A command refused at its first option still starts the JVM the way a real one does.
    Result run = secpe("run", "--method", "nope");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).doesNotContain(INCUBATOR);
    Result bench = secpe("bench", "kernel", "--m", "nope");
    assertThat(bench.code()).isEqualTo(2);
    assertThat(bench.err()).contains(INCUBATOR);
    Result asked = secpe(Map.of("SECPE_VECTOR", "1"), "run", "--method", "nope");
    assertThat(asked.code()).isEqualTo(2);
    assertThat(asked.err()).contains(INCUBATOR);
  }
}
