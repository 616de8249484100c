package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * A published module must not require a module whose name the JDK derives from a jar's file name:
 * the name changes with the file, and Maven warns "Required filename-based automodules detected
 * ... Please don't publish this project". This test reads the descriptors of the SecPE modules on
 * the command line's class path (every library module but the CUDA kernel, ND4J's kernel and the
 * two LLM framework adapters) and follows their {@code requires}, static ones too, as javac does;
 * the modules so reached whose jar has neither a descriptor nor an {@code Automatic-Module-Name}
 * must be exactly the ones docs/releasing.md lists ("Dependencies without a module name").
 */
class ModuleNamesTest {

  /** Each is in docs/releasing.md with its reason; the list may only shrink. */
  private static final Set<String> NAMED_AFTER_THEIR_FILE = Set.of(
      "liblinear", // secpe-evaluation's downstream classifier
      "ortools.java"); // secpe-accounting-ortools

  @Test
  void secpeModulesRequireOnlyStableModuleNames() {
    Map<String, Found> modules = modulesOnTheClassPath();
    assertThat(modules).as("the library's modules were read").containsKeys("dev.secpe.accounting", "dev.secpe.evaluation");
    Set<String> fromFileNames = new TreeSet<>();
    Set<String> seen = new TreeSet<>();
    Deque<String> todo = new ArrayDeque<>();
    modules.keySet().stream().filter(n -> n.startsWith("dev.secpe.")).forEach(todo::add);
    while (!todo.isEmpty()) {
      String name = todo.pop();
      Found m = modules.get(name);
      if (m == null || !seen.add(name)) {
        continue; // the JDK's own modules, or one this class path does not hold
      }
      if (m.descriptor().isAutomatic() && !m.namedInManifest()) {
        fromFileNames.add(name);
      }
      m.descriptor().requires().forEach(r -> todo.push(r.name()));
    }
    assertThat(fromFileNames).as("modules named after their jar's file").containsExactlyInAnyOrderElementsOf(NAMED_AFTER_THEIR_FILE);
    assertThat(seen).as("reached from the SecPE modules").contains("ojalgo", "liblinear", "ortools.java");
  }

  /** A module found on the class path: its descriptor, and whether a manifest gave its name. */
  private record Found(ModuleDescriptor descriptor, boolean namedInManifest) {}

  private static Map<String, Found> modulesOnTheClassPath() {
    Map<String, Found> out = new HashMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      boolean jar = entry.endsWith(".jar");
      if (!jar && !Files.isRegularFile(path.resolve("module-info.class"))) {
        continue; // a directory without a descriptor (this module's classes, test classes)
      }
      ModuleReference ref;
      try {
        ref = ModuleFinder.of(path).findAll().stream().findFirst().orElse(null);
      } catch (FindException e) {
        continue; // a jar that cannot be a module at all (ND4J's and OR-Tools' native jars)
      }
      if (ref != null) {
        out.putIfAbsent(ref.descriptor().name(), new Found(ref.descriptor(), jar && manifestNames(path)));
      }
    }
    return out;
  }

  private static boolean manifestNames(Path jar) {
    try (JarFile f = new JarFile(jar.toFile())) {
      return f.getManifest() != null && f.getManifest().getMainAttributes().getValue("Automatic-Module-Name") != null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
