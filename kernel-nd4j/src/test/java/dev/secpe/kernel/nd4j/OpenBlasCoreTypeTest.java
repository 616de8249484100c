package dev.secpe.kernel.nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.NativeLibrary;
import dev.secpe.clustering.Backend;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The OpenBLAS core type the library sets before ND4J loads: the rule on its own, and in a child
 * JVM started without OPENBLAS_CORETYPE, the core OpenBLAS reports it is running
 * ({@code openblas_get_corename}) after the kernel's first ND4J call.
 */
class OpenBlasCoreTypeTest {

  private static final Set<String> AVX512 = Set.of("fpu", "avx2", "avx512f", "avx512bw", "avx512dq", "avx512vl");

  @Test
  void rule() {
    assertThat(OpenBlasCoreType.choose(null, null, "Linux", AVX512)).contains("SKYLAKEX");
    // the user's variable is never replaced, whatever else is said
    assertThat(OpenBlasCoreType.choose("HASWELL", "ZEN", "Linux", AVX512)).isEmpty();
    assertThat(OpenBlasCoreType.choose(null, "ZEN", "Linux", AVX512)).isEmpty();
    // the property decides where the variable is unset
    assertThat(OpenBlasCoreType.choose("none", null, "Linux", AVX512)).isEmpty();
    assertThat(OpenBlasCoreType.choose(" Haswell ", null, "Mac OS X", Set.of())).contains("Haswell");
    // no SkylakeX without all four AVX-512 subsets (Knights Landing has avx512f alone)
    assertThat(OpenBlasCoreType.choose(null, null, "Linux", Set.of("avx2", "avx512f", "avx512pf", "avx512er"))).isEmpty();
    // Linux only: elsewhere OpenBLAS is left to its own detection
    assertThat(OpenBlasCoreType.choose(null, null, "Windows 11", AVX512)).isEmpty();
  }

  @Test
  void anExplicitCoreTypeReachesOpenBlasBeforeItLoads() throws Exception {
    assumeTrue(System.getProperty("os.name").startsWith("Linux") && OpenBlasCoreType.cpuFlags().contains("avx2"));
    // Haswell is not what OpenBLAS picks by itself on an AVX-512 machine, nor on this one (Zen)
    assertThat(coreNameInChild("-Dsecpe.openblas.coretype=Haswell")).isEqualTo("Haswell");
  }

  @Test
  void anAvx512MachineGetsSkylakeXKernels() throws Exception {
    assumeTrue(System.getProperty("os.name").startsWith("Linux")
        && OpenBlasCoreType.cpuFlags().containsAll(Set.of("avx512f", "avx512bw", "avx512dq", "avx512vl")));
    assertThat(coreNameInChild()).isEqualTo("SkylakeX");
  }

  private static String coreNameInChild(String... jvmArgs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(jvmArgs));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Probe.class.getName());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("OPENBLAS_CORETYPE");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out.lines()).as(out).contains("same-openblas=true");
    Optional<String> line = out.lines().filter(l -> l.startsWith("corename=")).findFirst();
    assertThat(line).as(out).isPresent();
    return line.get().substring("corename=".length());
  }

  /** Runs the ND4J kernel once, then prints the core OpenBLAS chose. */
  public static final class Probe {
    public static void main(String[] args) throws IOException {
      NearestNeighbours nn = NearestNeighbours.builder().backend(Backend.ND4J).build();
      nn.top1(RowSource.of(EmbeddingMatrix.of(new float[][] {{1, 0}, {0, 1}})),
          EmbeddingMatrix.of(new float[][] {{1, 1}}));
      // libnd4jcpu links libopenblas.so.0 (JavaCPP's preset also maps libopenblas_nolapack): ask
      // the loaded file itself; dlopen of a file already mapped returns the loaded instance
      List<String> before = openBlasFiles();
      String gemm = before.stream().filter(f -> Path.of(f).getFileName().toString().startsWith("libopenblas.so"))
          .findFirst().orElseThrow(() -> new IllegalStateException("OpenBLAS files mapped: " + before));
      String core = NativeLibrary.getInstance(gemm).getFunction("openblas_get_corename")
          .invokeString(new Object[0], false);
      System.out.println("corename=" + core);
      // no file mapped anew: the name came from the instance ND4J runs on, not a second copy
      boolean same = openBlasFiles().equals(before);
      System.out.println("same-openblas=" + same);
    }

    private static List<String> openBlasFiles() throws IOException {
      return Files.readAllLines(Path.of("/proc/self/maps")).stream()
          .filter(l -> l.contains("libopenblas")).map(l -> l.substring(l.lastIndexOf(' ') + 1))
          .distinct().toList();
    }
  }
}
