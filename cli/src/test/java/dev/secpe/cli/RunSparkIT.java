package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.core.Label;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.BundledCorpus;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --spark} as users run it, against the packaged command line (the shaded jar and
 * {@code target/spark-libs}, so it runs after {@code package}, under failsafe): the same seeded
 * plan with reproducible noise gives byte-identical synthetic data and the same releases in
 * memory, with {@code --spark local[2]} (as bin/secpe starts it) and under {@code SparkSubmit}
 * (the class spark-submit runs), for Aug-PE and SecPE (also with the dataset split and its votes).
 */
class RunSparkIT {

  /** The --add-opens list of Spark's launcher (JavaModuleOptions), as bin/secpe passes it. */
  private static final List<String> OPENS = List.of(
      "java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio", "java.util",
      "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref", "sun.nio.ch", "sun.nio.cs",
      "sun.security.action", "sun.util.calendar");

  private static final Path TARGET = Path.of("target").toAbsolutePath();

  @TempDir static Path dir;
  private static Path priv;
  private static Path pub;

  @BeforeAll
  static void data() throws IOException {
    // Public e-mails of the bundled sample stand in for both sides (a test must see no real
    // private text): 200 public, the next 120 as "private".
    List<PublicRecord> all = BundledCorpus.spamAssassin().publicPart().records();
    priv = write("private.jsonl", all.subList(200, 320));
    pub = write("public.jsonl", all.subList(0, 200));
  }

  private static Path write(String name, List<PublicRecord> records) throws IOException {
    ObjectMapper m = new ObjectMapper();
    List<String> lines = new ArrayList<>();
    for (PublicRecord r : records) {
      ObjectNode o = m.createObjectNode();
      o.put("text", r.text());
      o.put("label", r.label().map(Label::name).orElseThrow());
      lines.add(m.writeValueAsString(o));
    }
    Path p = dir.resolve(name);
    Files.write(p, lines, StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void augpeOnSparkReleasesWhatItReleasesInMemory() throws Exception {
    sameEverywhere("augpe", List.of("--epsilon", "4", "--delta", "1e-4"));
  }

  @Test
  void secpeOnSparkReleasesWhatItReleasesInMemory() throws Exception {
    sameEverywhere("secpe", List.of("--p", "1e-4", "--r", "1e-3", "--secrets", "random-words:20", "--clusters", "10"));
  }

  // fault: `run --spark ... --secret-free-public` (issue 52)
  // holds: the split with its secret-free votes gives byte-identical synthetic data and the same releases in memory, with --spark local[2] and under SparkSubmit (before: exit 2, "--secret-free-public ... cannot be used with --spark")
  @Test
  void theSplitOnSparkReleasesWhatItReleasesInMemory() throws Exception {
    sameEverywhere("secpe", "split-", List.of("--p", "1e-4", "--r", "1e-3", "--secrets", "random-words:20",
        "--secret-free-public", "--secret-free-votes"));
  }

  @Test
  void anUnreadablePrivateUriExitsTwoNamingTheOption() throws Exception {
    Path missing = dir.resolve("missing.jsonl");
    Result r = launch("augpe", List.of("--epsilon", "4", "--delta", "1e-4"), "missing", Launch.SPARK_OPTION,
        missing.toUri().toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.output()).contains("--private " + missing.toUri()).contains("does not exist")
        .doesNotContain("Exception\n\tat ");
  }

  private void sameEverywhere(String method, List<String> budget) throws Exception {
    sameEverywhere(method, "", budget);
  }

  /** As above; {@code tag} starts the names of the runs' files. */
  private void sameEverywhere(String method, String tag, List<String> budget) throws Exception {
    Path memOut = run(method, budget, tag + "memory", Launch.JAR);
    Path sparkOut = run(method, budget, tag + "spark", Launch.SPARK_OPTION);
    Path submitOut = run(method, budget, tag + "submit", Launch.SPARK_SUBMIT);
    assertThat(Files.readAllBytes(sparkOut)).isEqualTo(Files.readAllBytes(memOut));
    assertThat(Files.readAllBytes(submitOut)).isEqualTo(Files.readAllBytes(memOut));
    for (String field : List.of("mechanisms", "privacy")) {
      JsonNode mem = report(memOut).get(field);
      assertThat(mem).as(field).isNotEmpty();
      assertThat(report(sparkOut).get(field)).as(field).isEqualTo(mem);
      assertThat(report(submitOut).get(field)).as(field).isEqualTo(mem);
    }
    // One dataset, one journal, whichever store read it: each run adds to the same dataset's runs
    // (before, the Spark store keyed its records by its own content hash, a second journal).
    int runs = report(memOut).path("journal").path("runs").asInt();
    assertThat(runs).isPositive();
    assertThat(report(sparkOut).path("journal").path("runs").asInt()).as("journal runs after the Spark run")
        .isEqualTo(runs + 1);
    assertThat(report(submitOut).path("journal").path("runs").asInt()).as("journal runs after spark-submit")
        .isEqualTo(runs + 2);
  }

  /** A run's report: its mechanisms (ids, sensitivities, noise scales) and composed guarantee are compared. */
  private static JsonNode report(Path out) throws IOException {
    return new ObjectMapper().readTree(out.resolveSibling(out.getFileName() + ".report.json").toFile());
  }

  private enum Launch { JAR, SPARK_OPTION, SPARK_SUBMIT }

  private record Result(int exit, String output, Path out) {}

  private static Path run(String method, List<String> budget, String tag, Launch how) throws Exception {
    Result r = launch(method, budget, tag, how, priv.toString());
    assertThat(r.exit()).as("%s run of %s; its output:%n%s", tag, method, r.output()).isZero();
    return r.out();
  }

  private static Result launch(String method, List<String> budget, String tag, Launch how, String privateArg)
      throws Exception {
    Path out = dir.resolve(method + "-" + tag + ".jsonl");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String jar = TARGET.resolve("secpe-cli.jar").toString();
    String sparkLibs = TARGET.resolve("spark-libs").toString() + File.separator + "*";
    List<String> cmd = new ArrayList<>(List.of(java));
    if (how != Launch.JAR) {
      for (String p : OPENS) {
        cmd.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
      }
      cmd.add("-Djdk.reflect.useDirectMethodHandle=false");
    }
    switch (how) {
      case JAR -> cmd.addAll(List.of("-jar", jar));
      case SPARK_OPTION -> cmd.addAll(List.of("-cp", jar + File.pathSeparator + sparkLibs, "dev.secpe.cli.SecpeCli"));
      // A Spark distribution's jars, then ours (spark-submit --driver-class-path): Spark's own
      // classes and its Jackson first; ours are relocated where they clash.
      case SPARK_SUBMIT -> cmd.addAll(List.of("-cp", sparkLibs + File.pathSeparator + jar, "org.apache.spark.deploy.SparkSubmit",
          "--master", "local[2]", "--conf", "spark.ui.enabled=false", "--class", "dev.secpe.cli.SecpeCli", jar));
    }
    cmd.addAll(List.of("run", "--method", method, "--private", privateArg, "--public", pub.toString(),
        "--label-field", "label", "--synthetic-size", "12", "--iterations", "2", "--variations", "2",
        "--seed", "3", "--reproducible-noise", "5", "--embedder", "all-minilm-l6-v2-q",
        "--out", out.toString(), "--report", out.resolveSibling(out.getFileName() + ".report.json").toString(),
        "--journal", out.resolveSibling("journal").toString(), "--quiet"));
    cmd.addAll(budget);
    if (how != Launch.JAR) {
      cmd.addAll(List.of("--spark", "local[2]"));
    }
    Path log = dir.resolve(method + "-" + tag + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(tag + " run of " + method + " did not finish in 300 s");
    }
    return new Result(p.exitValue(), tail(log), out);
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
