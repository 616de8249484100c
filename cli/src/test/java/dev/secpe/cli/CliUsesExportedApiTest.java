package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/secpe} is a user of the library like any other: every {@code dev.secpe} package its
 * code names is one a library module exports to everyone (its {@code module-info.java}), so that
 * the command line runs on the module path too and a library's internal package can change
 * without breaking it (docs/architecture.md, "dev.secpe.cli").
 */
class CliUsesExportedApiTest {

  private static final Path REPO = Path.of("..");
  private static final Pattern NAMED = Pattern.compile("\\b(dev\\.secpe(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
  private static final Pattern EXPORT = Pattern.compile("^\\s*exports\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

  /**
   * The uses beyond the exported API, each on purpose, and no others: the benchmarks time the
   * vote kernel's phases through its probe (not API by design, so that it can change with the
   * kernel); the console finds the native-library cache that the natives module exports to its
   * add-ons only; Spark's module has no module-info (an automatic module: all its packages).
   */
  private static final List<String> ON_PURPOSE = List.of(
      "KernelBenchmark.java names dev.secpe.clustering.internal",
      "SecpeCli.java names dev.secpe.natives",
      "SparkBench.java names dev.secpe.spark",
      "SparkRun.java names dev.secpe.spark",
      "SplitBenchSpark.java names dev.secpe.spark",
      "VoteBenchmark.java names dev.secpe.clustering.internal");

  @Test
  void theCommandLineNamesOnlyExportedPackages() throws IOException {
    Set<String> exported = exportedPackages();
    assertThat(exported).as("the modules' exports were read").contains("dev.secpe.evolution", "dev.secpe.core");
    Set<String> internal = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        for (String pkg : named(Files.readString(f))) {
          if (!pkg.startsWith("dev.secpe.cli") && !exported.contains(pkg)) {
            internal.add(f.getFileName() + " names " + pkg);
          }
        }
      }
    }
    assertThat(internal).as("cli code naming a package no module exports to everyone").containsExactlyElementsOf(ON_PURPOSE);
  }

  @Test
  void theCheckSeesAnInternalPackageAndSkipsComments() {
    // The check itself: code naming an internal package is seen; a comment or javadoc is not.
    assertThat(named("import dev.secpe.evolution.persist.CheckpointStore;\n"
            + "// dev.secpe.evolution.engine.Engine in a comment\n"
            + " * {@link dev.secpe.evolution.ctcl.CTCLPlan} in javadoc\n"
            + "var x = dev.secpe.accounting.pld.DiscretePld.class;"))
        .containsExactlyInAnyOrder("dev.secpe.evolution.persist", "dev.secpe.accounting.pld");
  }

  /** The packages (of dev.secpe) that the code lines of {@code source} name, comments left out. */
  private static Set<String> named(String source) {
    Set<String> out = new TreeSet<>();
    for (String line : source.split("\n")) {
      String t = line.strip();
      if (t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")) {
        continue;
      }
      Matcher m = NAMED.matcher(t);
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  /** Every package a library module exports to everyone (qualified exports left out). */
  private static Set<String> exportedPackages() throws IOException {
    Set<String> out = new TreeSet<>();
    try (Stream<Path> modules = Files.list(REPO)) {
      for (Path m : modules.toList()) {
        Path info = m.resolve("src/main/java/module-info.java");
        if (Files.isRegularFile(info)) {
          Matcher e = EXPORT.matcher(Files.readString(info));
          while (e.find()) {
            out.add(e.group(1));
          }
        }
      }
    }
    return out;
  }
}
