package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrtNativesTest {

  @Test
  void extractsOnceAndReusesTheCachedLibraries(@TempDir Path cache) throws Exception {
    Path dir = OrtNatives.extract(cache).orElseThrow();
    List<Path> libs;
    try (Stream<Path> s = Files.list(dir)) {
      libs = s.sorted().toList();
    }
    assertThat(libs).extracting(p -> p.getFileName().toString())
        .containsExactlyInAnyOrder(
            System.mapLibraryName("onnxruntime"), System.mapLibraryName("onnxruntime4j_jni"), "SHA256SUMS");
    Path lib = dir.resolve(System.mapLibraryName("onnxruntime"));
    assertThat(Files.size(lib)).isGreaterThan(1_000_000);
    Files.setLastModifiedTime(lib, FileTime.fromMillis(0));
    assertThat(OrtNatives.extract(cache)).contains(dir); // the same directory, nothing rewritten
    assertThat(Files.getLastModifiedTime(lib).toMillis()).isZero();
    // A damaged cached library is replaced, not loaded.
    Files.write(lib, new byte[] {1, 2, 3});
    OrtNatives.extract(cache);
    assertThat(Files.size(lib)).isGreaterThan(1_000_000);
  }

  /**
   * A fresh JVM that embeds a text with its temporary directory pointed at an empty folder leaves
   * that folder empty (ONNX Runtime's own extraction left an onnxruntime-java* directory per run).
   */
  @Test
  void aRunLeavesNothingInTheTemporaryDirectory(@TempDir Path tmp, @TempDir Path cache) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-Djava.io.tmpdir=" + tmp,
                "-Dsecpe.native.cache=" + cache,
                "-cp",
                System.getProperty("java.class.path"),
                EmbedOnce.class.getName())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.map(Path::getFileName).map(Path::toString).toList()).isEmpty();
    }
    assertThat(new File(cache.toFile(), "").list()).isNotEmpty();
  }

  /** The child JVM of the test above. */
  static final class EmbedOnce {
    public static void main(String[] args) {
      try (MiniLmEmbedder e = MiniLmEmbedder.builder().threads(1).build()) {
        if (e.embed(List.of("hello")).length != 1) {
          System.exit(3);
        }
      }
    }
  }
}
