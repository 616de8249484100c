package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JLine (the progress bars' terminal) extracted its native library and a lock file into the
 * temporary directory, deleted only on a normal exit: every {@code kill -9} of a run on a terminal
 * left both behind (issue 32). {@link SecpeCli#configureTerminal()} turns JLine's native part off
 * and sends what still loads it to the per-user native cache.
 */
class TerminalNativesTest {

  // fault: `kill -9` of a run that drew progress bars on a terminal
  // holds: no JLine native library or lock file in the temporary directory: `bin/secpe` turns JLine's JNI provider off and points `jline.tmpdir` at the per-user native cache (`TerminalNativesTest` loads JLine's native library and finds it there, not in `java.io.tmpdir`) (before: `jlinenative-*.so` and its `.lck` stayed in /tmp)
  @Test
  void jlinesNativeLibraryGoesToThePerUserCacheNotTheTemporaryDirectory(@TempDir Path dir) throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Path cache = dir.resolve("cache");
    Properties saved = (Properties) System.getProperties().clone();
    try {
      for (String k : new String[] {"jline.tmpdir", "org.jline.terminal.jni", "org.jline.terminal.exec.redirectPipeCreationMode",
          "org.jline.terminal.pty.fileDescriptorCreationMode"}) {
        System.clearProperty(k);
      }
      System.setProperty("java.io.tmpdir", tmp.toString());
      System.setProperty("secpe.native.cache", cache.toString());
      SecpeCli.configureTerminal();
      assertThat(System.getProperty("org.jline.terminal.jni")).isEqualTo("false");
      assertThat(Path.of(System.getProperty("jline.tmpdir"))).isEqualTo(cache.resolve("jline"));
      // Where JLine would put its library if anything still loaded it.
      org.jline.nativ.JLineNativeLoader.initialize();
      try (Stream<Path> s = Files.list(tmp)) {
        assertThat(s.map(p -> p.getFileName().toString())).as("temporary directory").noneMatch(n -> n.startsWith("jlinenative"));
      }
      String loaded = org.jline.nativ.JLineNativeLoader.getNativeLibraryPath();
      if (loaded != null && loaded.contains("jlinenative")) {
        assertThat(Path.of(loaded)).startsWith(cache.resolve("jline"));
      }
    } finally {
      System.setProperties(saved);
    }
  }
}
