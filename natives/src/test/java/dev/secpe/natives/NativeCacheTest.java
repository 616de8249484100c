package dev.secpe.natives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeCacheTest {

  private static final String DIR = "natives-test-x86-64/";

  /** Three "libraries" of known bytes (one large enough to be deflated in several blocks). */
  private static Map<String, byte[]> libraries() {
    Map<String, byte[]> libs = new LinkedHashMap<>();
    libs.put("libone.so", "first library".getBytes(StandardCharsets.UTF_8));
    libs.put("libtwo.so.2", "second library, a bit longer".getBytes(StandardCharsets.UTF_8));
    byte[] big = new byte[300_000];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 31 + i / 7);
    }
    libs.put("libbig.so", big);
    return libs;
  }

  private static Path jar(Path dir, Map<String, byte[]> libs) throws IOException {
    Path jar = dir.resolve("natives.jar");
    try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(jar))) {
      z.putNextEntry(new ZipEntry(DIR));
      z.closeEntry();
      z.putNextEntry(new ZipEntry(DIR + "sub/"));
      z.closeEntry();
      z.putNextEntry(new ZipEntry(DIR + "sub/nested.so"));
      z.write(1);
      z.closeEntry();
      for (Map.Entry<String, byte[]> e : libs.entrySet()) {
        z.putNextEntry(new ZipEntry(DIR + e.getKey()));
        z.write(e.getValue());
        z.closeEntry();
      }
    }
    return jar;
  }

  private static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  @Test
  void extractsOnceVerifiesAndReplacesADamagedCopy(@TempDir Path tmp, @TempDir Path cache) throws Exception {
    Map<String, byte[]> libs = libraries();
    try (URLClassLoader cl = new URLClassLoader(new URL[] {jar(tmp, libs).toUri().toURL()}, null)) {
      List<String> names = NativeCache.list(cl, DIR);
      assertThat(names).containsExactly("libbig.so", "libone.so", "libtwo.so.2"); // not sub/ or its file

      Path dir = NativeCache.extract(cache, "test", cl, DIR, names);
      assertThat(dir.getParent()).isEqualTo(cache);
      assertThat(dir.getFileName().toString()).matches("test-[0-9a-f]{16}");
      for (Map.Entry<String, byte[]> e : libs.entrySet()) {
        assertThat(Files.readAllBytes(dir.resolve(e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
      }
      // The manifest holds each file's SHA-256, as sha256sum would print it.
      assertThat(Files.readAllLines(dir.resolve(NativeCache.MANIFEST)))
          .containsExactly(
              sha256(libs.get("libbig.so")) + "  libbig.so",
              sha256(libs.get("libone.so")) + "  libone.so",
              sha256(libs.get("libtwo.so.2")) + "  libtwo.so.2");
      try (Stream<Path> s = Files.list(dir)) {
        assertThat(s.map(p -> p.getFileName().toString()).toList())
            .containsExactlyInAnyOrder("libbig.so", "libone.so", "libtwo.so.2", NativeCache.MANIFEST); // no .part left
      }

      // A second start reuses the copies: nothing is rewritten.
      Path big = dir.resolve("libbig.so");
      Files.setLastModifiedTime(big, FileTime.fromMillis(0));
      assertThat(NativeCache.extract(cache, "test", cl, DIR, names)).isEqualTo(dir);
      assertThat(Files.getLastModifiedTime(big).toMillis()).isZero();

      // A damaged copy (one byte flipped, same size) is replaced, and only that one.
      byte[] flipped = libs.get("libbig.so").clone();
      flipped[123_456] ^= 1;
      Files.write(big, flipped);
      Path one = dir.resolve("libone.so");
      Files.setLastModifiedTime(one, FileTime.fromMillis(0));
      NativeCache.extract(cache, "test", cl, DIR, names);
      assertThat(Files.readAllBytes(big)).isEqualTo(libs.get("libbig.so"));
      assertThat(Files.getLastModifiedTime(one).toMillis()).isZero();

      // A missing copy and a lost manifest are restored too.
      Files.delete(dir.resolve("libtwo.so.2"));
      NativeCache.extract(cache, "test", cl, DIR, names);
      assertThat(Files.readAllBytes(dir.resolve("libtwo.so.2"))).isEqualTo(libs.get("libtwo.so.2"));
      Files.write(dir.resolve(NativeCache.MANIFEST), new byte[] {(byte) 0xff, 0, 1});
      NativeCache.extract(cache, "test", cl, DIR, names);
      assertThat(Files.readAllLines(dir.resolve(NativeCache.MANIFEST))).hasSize(3);
    }
  }

  @Test
  void otherContentGoesToAnotherDirectory(@TempDir Path tmp, @TempDir Path cache) throws Exception {
    Map<String, byte[]> libs = libraries();
    Path a;
    try (URLClassLoader cl = new URLClassLoader(new URL[] {jar(tmp, libs).toUri().toURL()}, null)) {
      a = NativeCache.extract(cache, "test", cl, DIR, List.of("libone.so"));
    }
    libs.put("libone.so", "first library, version 2".getBytes(StandardCharsets.UTF_8));
    Path other = Files.createDirectory(tmp.resolve("v2"));
    try (URLClassLoader cl = new URLClassLoader(new URL[] {jar(other, libs).toUri().toURL()}, null)) {
      Path b = NativeCache.extract(cache, "test", cl, DIR, List.of("libone.so"));
      assertThat(b).isNotEqualTo(a);
      assertThat(Files.readString(b.resolve("libone.so"))).isEqualTo("first library, version 2");
    }
    assertThat(Files.readString(a.resolve("libone.so"))).isEqualTo("first library");
  }

  @Test
  void resourcesInADirectoryWorkLikeAJar(@TempDir Path tmp, @TempDir Path cache) throws Exception {
    Map<String, byte[]> libs = libraries();
    Path classes = Files.createDirectories(tmp.resolve("classes").resolve(DIR));
    for (Map.Entry<String, byte[]> e : libs.entrySet()) {
      Files.write(classes.resolve(e.getKey()), e.getValue());
    }
    try (URLClassLoader cl = new URLClassLoader(new URL[] {tmp.resolve("classes").toUri().toURL()}, null)) {
      List<String> names = NativeCache.list(cl, DIR);
      assertThat(names).containsExactly("libbig.so", "libone.so", "libtwo.so.2");
      Path dir = NativeCache.extract(cache, "test", cl, DIR, names);
      assertThat(Files.readAllBytes(dir.resolve("libbig.so"))).isEqualTo(libs.get("libbig.so"));
      // The same content from a jar has the same id.
      try (URLClassLoader fromJar = new URLClassLoader(new URL[] {jar(tmp, libs).toUri().toURL()}, null)) {
        assertThat(NativeCache.extract(cache, "test", fromJar, DIR, names)).isEqualTo(dir);
      }
    }
  }

  @Test
  void missingResourcesAndBadNamesAreRefused(@TempDir Path tmp, @TempDir Path cache) throws Exception {
    try (URLClassLoader cl = new URLClassLoader(new URL[] {jar(tmp, libraries()).toUri().toURL()}, null)) {
      assertThat(NativeCache.list(cl, "no-such-dir/")).isEmpty();
      assertThatThrownBy(() -> NativeCache.extract(cache, "test", cl, DIR, List.of("libnone.so")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("natives-test-x86-64/libnone.so not found");
      assertThatThrownBy(() -> NativeCache.extract(cache, "test", cl, DIR, List.of("../libone.so")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> NativeCache.list(cl, "no-slash"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("dir=no-slash");
    }
  }

  @Test
  void theRootIsThePropertyWhenSet() {
    String before = System.getProperty("secpe.native.cache");
    try {
      System.setProperty("secpe.native.cache", "/some/where");
      assertThat(NativeCache.root()).isEqualTo(Path.of("/some/where"));
      System.clearProperty("secpe.native.cache");
      // endsWithRaw: endsWith canonicalises, which fails where the cache does not exist yet (a new machine)
      assertThat(NativeCache.root()).endsWithRaw(Path.of("secpe", "native"));
    } finally {
      if (before == null) {
        System.clearProperty("secpe.native.cache");
      } else {
        System.setProperty("secpe.native.cache", before);
      }
    }
  }
}
