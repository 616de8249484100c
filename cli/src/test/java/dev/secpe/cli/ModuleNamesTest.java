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
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A published module must not require a module whose name the JDK derives from a jar's file name:
 * the name changes with the file (and with the day its library names its module), and Maven warns
 * "Required filename-based automodules detected ... Please don't publish this project". None does
 * (docs/releasing.md, "Dependencies without a module name", says how each such dependency is
 * handled). Two checks: the compiled descriptors of the SecPE modules on the command line's class
 * path, followed through their {@code requires} (static ones too, as javac does), and the source
 * descriptor of every library module of the repository, which covers the modules the command line
 * does not hold (the ND4J and CUDA kernels).
 */
class ModuleNamesTest {

  /**
   * Modules the source descriptors require that are neither the JDK's, SecPE's nor on this class
   * path, each with the reason its name is stable.
   */
  private static final Map<String, String> OUTSIDE_THIS_CLASS_PATH = Map.of(
      "org.bytedeco.cuda", "secpe-kernel-cuda: JavaCPP's CUDA presets jar carries a descriptor");

  @Test
  void theSecpeModulesHereRequireNoModuleNamedAfterItsFile() {
    Map<String, Found> modules = modulesOnTheClassPath();
    assertThat(modules).as("the library's modules were read")
        .containsKeys("dev.secpe.accounting", "dev.secpe.evaluation", "dev.secpe.accounting.ortools");
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
    assertThat(fromFileNames).as("modules named after their jar's file").isEmpty();
    // evaluation's linear algebra is reached (a named module); LIBLINEAR and OR-Tools are not
    assertThat(seen).as("reached from the SecPE modules").contains("ojalgo")
        .doesNotContain("liblinear", "ortools.java");
  }

  @Test
  void everyLibraryDescriptorRequiresOnlyStableNames() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    assertThat(root.resolve("cli/pom.xml")).as("run from the cli module").isRegularFile();
    Map<String, Found> here = modulesOnTheClassPath();
    Pattern requires = Pattern.compile("requires\\s+(?:(?:static|transitive)\\s+)*([\\w.]+)\\s*;");
    Map<String, String> unstable = new TreeMap<>();
    Set<String> descriptors = new TreeSet<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
        Path info = module.resolve("src/main/java/module-info.java");
        if (!Files.isRegularFile(info)) {
          continue;
        }
        descriptors.add(module.getFileName().toString());
        Matcher m = requires.matcher(withoutComments(Files.readString(info)));
        while (m.find()) {
          String name = m.group(1);
          Found found = here.get(name);
          boolean stable = name.startsWith("dev.secpe.")
              || ModuleFinder.ofSystem().find(name).isPresent()
              || OUTSIDE_THIS_CLASS_PATH.containsKey(name)
              || found != null && (!found.descriptor().isAutomatic() || found.namedInManifest());
          if (!stable) {
            unstable.put(module.getFileName() + " requires " + name,
                found == null ? "not on this class path" : "named after its file");
          }
        }
      }
    }
    assertThat(unstable).as("requires of a name that is not the module's own").isEmpty();
    // the kernels are read from source here; the adapters have no descriptor (automatic modules
    // named by their manifests: their API is LangChain4j's and Spring AI's types)
    assertThat(descriptors).contains("clustering", "evaluation", "kernel-nd4j", "kernel-cuda", "accounting-ortools")
        .doesNotContain("llm-langchain4j", "llm-spring-ai");
  }

  private static String withoutComments(String source) {
    return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
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
