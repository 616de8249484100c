package dev.secpe.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input files open and read with a bounded wait. The FIFO cases hung for good before (a FIFO with
 * no writer blocks {@code open}); the JUnit timeouts only guard the build against a hang.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InputFilesTest {

  private static final Duration SHORT = Duration.ofMillis(300);

  private static Path fifo(Path dir, String name) throws Exception {
    Path p = dir.resolve(name);
    Process mk;
    try {
      mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      mk = null;
    }
    assumeTrue(mk != null && mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo is not available");
    return p;
  }

  /** Opens the FIFO for writing once (releasing a reader blocked in open) and closes it. */
  private static void release(Path fifo) throws Exception {
    new FileOutputStream(fifo.toFile()).close();
  }

  @Test
  void aRegularFileReadsAsWrittenAcrossManyChunks(@TempDir Path dir) throws Exception {
    byte[] bytes = new byte[1_000_003];
    new SplittableRandom(7).nextBytes(bytes);
    Path f = dir.resolve("data.bin");
    Files.write(f, bytes);
    try (InputStream in = InputFiles.open(f, SHORT)) {
      // Single bytes and bulk reads mixed, as parsers do.
      byte[] first = new byte[] {(byte) in.read(), (byte) in.read()};
      byte[] rest = in.readAllBytes();
      assertThat(first).containsExactly(bytes[0], bytes[1]);
      assertThat(rest).containsExactly(java.util.Arrays.copyOfRange(bytes, 2, bytes.length));
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void aMissingFileFailsAsFilesWould(@TempDir Path dir) {
    assertThatThrownBy(() -> InputFiles.open(dir.resolve("none.jsonl"), SHORT))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("none.jsonl");
    assertThatThrownBy(() -> InputFiles.open(dir, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stallTimeout must be positive, got stallTimeout=PT0S");
  }

  @Test
  void aFifoWithNoWriterTimesOutNamingTheFile(@TempDir Path dir) throws Exception {
    Path fifo = fifo(dir, "private.jsonl");
    assertThatThrownBy(() -> InputFiles.open(fifo, SHORT))
        .isInstanceOf(InputStalledException.class)
        .hasMessage("cannot open " + fifo + " within 0.3 s: a FIFO or pipe that no process writes to, or a stalled file system");
    release(fifo);
  }

  @Test
  void aWriterThatStallsTimesOutAfterTheDataItGave(@TempDir Path dir) throws Exception {
    Path fifo = fifo(dir, "stalls.jsonl");
    CountDownLatch done = new CountDownLatch(1);
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try (OutputStream out = new FileOutputStream(fifo.toFile())) {
        out.write("{\"text\": \"one\"}\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        done.await(); // keeps the FIFO open without writing
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    try (InputStream in = InputFiles.open(fifo, SHORT)) {
      byte[] got = new byte[16];
      assertThat(in.readNBytes(got, 0, 16)).isEqualTo(16);
      assertThat(new String(got, StandardCharsets.UTF_8)).isEqualTo("{\"text\": \"one\"}\n");
      assertThatThrownBy(in::read)
          .isInstanceOf(InputStalledException.class)
          .hasMessage("no data from " + fifo + " within 0.3 s: its writer (a FIFO or pipe) or the file system stalled");
    } finally {
      done.countDown();
    }
    writer.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
  }

  @Test
  void aFifoThatDeliversIsReadToItsEnd(@TempDir Path dir) throws Exception {
    Path fifo = fifo(dir, "piped.jsonl");
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try (OutputStream out = new FileOutputStream(fifo.toFile())) {
        for (int i = 0; i < 5_000; i++) {
          out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    List<String> lines = InputFiles.readAllLines(fifo, Duration.ofSeconds(20));
    writer.get(30, TimeUnit.SECONDS);
    assertThat(lines).hasSize(5_000);
    assertThat(lines.get(0)).isEqualTo("line 0");
    assertThat(lines.get(4_999)).isEqualTo("line 4999");
  }

  @Test
  void theDatasetReaderReportsAStalledPrivateFileWithoutHanging(@TempDir Path dir) throws Exception {
    Path fifo = fifo(dir, "private.jsonl");
    DatasetReader reader = DatasetReader.builder().readTimeout(SHORT).build();
    assertThatThrownBy(() -> reader.readPrivate(fifo))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("cannot open " + fifo + " within 0.3 s")
        .hasCauseInstanceOf(InputStalledException.class);
    release(fifo);
    assertThatThrownBy(() -> DatasetReader.builder().readTimeout(Duration.ofSeconds(-1)))
        .hasMessage("readTimeout must be positive, got readTimeout=PT-1S");
  }
}
