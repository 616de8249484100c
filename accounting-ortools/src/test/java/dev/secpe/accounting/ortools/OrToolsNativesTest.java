package dev.secpe.accounting.ortools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.accounting.secret.SecretLpProblem;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OR-Tools' natives come from the per-user cache: a JVM that solves an LP with GLOP and is then
 * killed with {@code kill -9} leaves nothing in its temporary directory. Before, {@code
 * Loader.loadNativeLibraries()} copied about 69 MB into an {@code ortools-java*} directory there on
 * every load, removed at a normal exit only.
 */
class OrToolsNativesTest {

  @Test
  void aKilledJvmLeavesNothingInTheTemporaryDirectoryAndTheNextOneReusesTheCache(
      @TempDir Path tmp, @TempDir Path cache) throws Exception {
    solveThenKill(tmp, cache);
    assertThat(list(tmp)).isEmpty();
    Path dir;
    try (Stream<Path> s = Files.list(cache)) {
      dir = s.filter(p -> p.getFileName().toString().startsWith("ortools-")).findFirst().orElseThrow();
    }
    Path jni = dir.resolve(System.mapLibraryName("jniortools"));
    assertThat(Files.size(jni)).isGreaterThan(100_000);

    // A second JVM loads the same copies (nothing rewritten) and still leaves the temporary directory empty.
    Files.setLastModifiedTime(jni, FileTime.fromMillis(0));
    solveThenKill(tmp, cache);
    assertThat(list(tmp)).isEmpty();
    assertThat(Files.getLastModifiedTime(jni).toMillis()).isZero();
    assertThat(list(cache)).containsExactly(dir.getFileName().toString());
  }

  /** Starts a JVM that solves one LP, checks the temporary directory while it runs, then kills it. */
  private static void solveThenKill(Path tmp, Path cache) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-Djava.io.tmpdir=" + tmp,
                "-Dsecpe.native.cache=" + cache,
                "-cp",
                System.getProperty("java.class.path"),
                SolveAndWait.class.getName())
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      StringBuilder seen = new StringBuilder();
      while ((line = out.readLine()) != null && !line.equals("solved")) {
        seen.append(line).append('\n');
      }
      assertThat(line).as("child output: %s", seen).isEqualTo("solved");
      // While the JVM still runs, with OR-Tools loaded: nothing was extracted to the temporary directory.
      assertThat(list(tmp)).isEmpty();
    } finally {
      p.destroyForcibly(); // SIGKILL: no shutdown hook, no deleteOnExit
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static List<String> list(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }

  /** The child JVM: solves the triangle LP with GLOP, says so, and waits to be killed. */
  static final class SolveAndWait {
    public static void main(String[] args) throws Exception {
      SecretLpProblem p = new SecretLpProblem(new double[] {1, 1, 1},
          new int[][] {{0, 1}, {0, 2}, {1, 2}}, new double[] {0.8, 0.8, 0.8});
      double[] x = new GlopSecretLpSolver().solve(p);
      for (double v : x) {
        assertThat(v).isCloseTo(0.4, within(1e-9));
      }
      System.out.println("solved");
      System.out.flush();
      Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }
  }
}
