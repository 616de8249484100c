package dev.secpe.accounting.ortools.modular;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.secret.SecretLpProblem;
import dev.secpe.accounting.secret.SecretLpSolver;
import java.io.File;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * This module on the module path, OR-Tools on the class path: a child JVM with the SecPE modules of
 * this test's class path (this one, secpe-accounting, secpe-natives) on its module path and every
 * other jar (OR-Tools and its natives among them) on its class path solves an LP with GLOP through
 * the service, as an application launched with {@code java -m} does. The descriptor does not
 * require OR-Tools (it has no module name of its own): before this module read the class path by
 * itself, its descriptor required {@code ortools.java}, and this launch failed to resolve.
 */
class ModulePathTest {

  @Test
  void glopSolvesWithThisModuleOnTheModulePathAndOrToolsOnTheClassPath() throws Exception {
    List<String> modulePath = new ArrayList<>();
    List<String> classPath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      (isSecpeModule(Path.of(entry)) ? modulePath : classPath).add(entry);
    }
    assertThat(modulePath).hasSize(3);
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", String.join(File.pathSeparator, modulePath),
        "--add-modules", "dev.secpe.accounting.ortools",
        "-cp", String.join(File.pathSeparator, classPath),
        Probe.class.getName());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out.lines()).as(out).contains("GLOP from dev.secpe.accounting.ortools: 0.4 0.4 0.4");
  }

  /** A directory or jar whose descriptor names a SecPE module. */
  private static boolean isSecpeModule(Path entry) {
    try {
      return ModuleFinder.of(entry).findAll().stream().map(ModuleReference::descriptor)
          .anyMatch(d -> !d.isAutomatic() && d.name().startsWith("dev.secpe."));
    } catch (FindException e) {
      return false; // not a module at all (OR-Tools' natives jar)
    }
  }

  /**
   * The child JVM (on its class path, in a package of its own): the triangle LP of
   * OrToolsNativesTest, solved by the GLOP service; prints the module it came from and x.
   */
  public static final class Probe {
    public static void main(String[] args) {
      SecretLpProblem p = new SecretLpProblem(new double[] {1, 1, 1},
          new int[][] {{0, 1}, {0, 2}, {1, 2}}, new double[] {0.8, 0.8, 0.8});
      for (SecretLpSolver s : ServiceLoader.load(SecretLpSolver.class)) {
        if (s.name().equals("GLOP")) {
          double[] x = s.solve(p);
          StringBuilder line = new StringBuilder("GLOP from " + s.getClass().getModule().getName() + ":");
          for (double v : x) {
            line.append(' ').append(Math.round(v * 1e9) / 1e9);
          }
          System.out.println(line);
        }
      }
    }
  }
}
