package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The map of the evolution module's packages that docs/architecture.md draws, checked against the
 * import lines of the sources: what each internal package may not touch.
 */
class PackageMapTest {

  private static final Path SOURCES = Path.of("src/main/java/dev/secpe/evolution");
  private static final Pattern EVOLUTION_TYPE = Pattern.compile("\\bdev\\.secpe\\.evolution\\.((?:[a-z]+\\.)*)([A-Z]\\w*)");

  @Test
  void persistenceReachesNothingOfTheModuleAboveIt() throws IOException {
    assertThat(uses("persist")).as("types of dev.secpe.evolution that persist uses").isEmpty();
  }

  @Test
  void providerPlumbingReachesNothingOfTheModuleAboveIt() throws IOException {
    assertThat(uses("provider")).as("types of dev.secpe.evolution that provider uses").isEmpty();
  }

  @Test
  void theKernelReachesNothingOfTheModuleAboveIt() throws IOException {
    // Below the public face (PrivateStore.countNearest, the in-memory store) and the engine alike:
    // any use of either would close a circle through the other.
    assertThat(uses("kernel")).as("types of dev.secpe.evolution that kernel uses").isEmpty();
  }

  @Test
  void theEngineAndTheMethodsReachPersistenceThroughItsDoorOnly() throws IOException {
    Set<String> door = Set.of("RunGuard", "Checkpoint", "CheckpointStore", "ReleaseStore", "ReleaseCodec");
    assertThat(uses("engine")).as("the engine opens its run's guard").contains("persist.RunGuard");
    for (String pkg : List.of("engine", "secpe", "augpe", "dpga", "ctcl")) {
      assertThat(uses(pkg)).as("what %s uses of persist", pkg)
          .filteredOn(t -> t.startsWith("persist."))
          .allSatisfy(t -> assertThat(door).contains(t.substring("persist.".length())));
    }
  }

  @Test
  void noMethodImportsAnotherAndTheEngineImportsNoMethodNorEntryPoint() throws IOException {
    List<String> methods = List.of("secpe", "augpe", "dpga", "ctcl");
    Set<String> entryPoints = Set.of("SecPE", "AugPE", "DPGA", "CTCL", "Runs", "EvolutionBuilder");
    for (String pkg : methods) {
      assertThat(uses(pkg)).as("what %s uses of the module", pkg)
          .noneMatch(t -> methods.contains(t.split("\\.")[0]))
          .noneMatch(entryPoints::contains);
    }
    for (String pkg : List.of("engine", "kernel", "persist", "provider")) {
      assertThat(uses(pkg)).as("what %s uses of the module", pkg)
          .noneMatch(t -> methods.contains(t.split("\\.")[0]))
          .noneMatch(entryPoints::contains);
    }
  }

  @Test
  void thePublicFaceReadsTheJournalThroughItsReadSideOnly() throws IOException {
    assertThat(importsOf(SOURCES.resolve("PrivacyJournal.java")))
        .filteredOn(t -> t.startsWith("persist."))
        .containsOnly("persist.Checkpoint", "persist.JournalEntry", "persist.RunJournal", "persist.Spending");
  }

  @Test
  void theMapSeesAnImportThatBreaksIt() {
    // The check itself: a line that would break the map is seen, a comment or a same-package one is not.
    List<String> seen = new ArrayList<>();
    collect("persist", "import dev.secpe.evolution.engine.Method;", seen);
    collect("persist", " * {@link dev.secpe.evolution.PrivacyJournal} reads it", seen);
    collect("persist", "import dev.secpe.evolution.persist.RunGuard;", seen);
    assertThat(seen).containsExactly("engine.Method");
  }

  /** The types of dev.secpe.evolution outside {@code pkg} that code (not comments) in {@code pkg} names. */
  private static List<String> uses(String pkg) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(f)) {
          collect(pkg, line, out);
        }
      }
    }
    return out;
  }

  private static List<String> importsOf(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (line.startsWith("import ")) {
        collect("", line, out);
      }
    }
    return out;
  }

  private static void collect(String pkg, String line, List<String> out) {
    String code = line.strip();
    if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
      return;
    }
    Matcher m = EVOLUTION_TYPE.matcher(code);
    while (m.find()) {
      String where = m.group(1).isEmpty() ? "" : m.group(1).substring(0, m.group(1).length() - 1);
      if (!where.equals(pkg)) {
        out.add((where.isEmpty() ? "" : where + ".") + m.group(2));
      }
    }
  }
}
