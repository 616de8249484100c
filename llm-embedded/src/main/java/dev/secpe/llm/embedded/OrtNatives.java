package dev.secpe.llm.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * ONNX Runtime's native libraries, extracted once to a per-user cache directory and loaded from
 * there ({@code onnxruntime.native.path}), instead of being copied into a fresh directory of the
 * system temporary directory on every start. That copy left an {@code onnxruntime-java*}
 * directory behind after every run, and 16 MB of libraries after a killed one.
 *
 * <p>The cache is {@code secpe.native.cache} (a system property) or {@code
 * $XDG_CACHE_HOME/secpe/native} or {@code ~/.cache/secpe/native}, with one subdirectory per
 * platform and library content (a SHA-256 prefix), so versions never mix. Files are written to a
 * temporary name in that directory and renamed, so a crash never leaves half a library. A user who
 * sets {@code onnxruntime.native.path} keeps it; where the cache cannot be written, ONNX Runtime's
 * own extraction is used as before.
 */
final class OrtNatives {

  private static volatile boolean prepared;

  private OrtNatives() {}

  /** Points ONNX Runtime at the cached libraries, extracting them first if needed. Idempotent. */
  static synchronized void prepare() {
    if (prepared || System.getProperty("onnxruntime.native.path") != null) {
      prepared = true;
      return;
    }
    prepared = true;
    try {
      extract(cacheRoot()).ifPresent(dir -> System.setProperty("onnxruntime.native.path", dir.toString()));
    } catch (IOException | RuntimeException e) {
      // Not writable, or an unusual platform: ONNX Runtime extracts to the temporary directory.
    }
  }

  /** The per-user cache root. */
  static Path cacheRoot() {
    String p = System.getProperty("secpe.native.cache");
    if (p != null && !p.isBlank()) {
      return Path.of(p);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("secpe").resolve("native");
  }

  /**
   * Extracts this platform's ONNX Runtime libraries under {@code root} (reusing a complete earlier
   * extraction) and returns their directory; empty when the jar has none for this platform.
   */
  static Optional<Path> extract(Path root) throws IOException {
    String platform = platform();
    String prefix = "ai/onnxruntime/native/" + platform + "/";
    List<String> names = List.of(System.mapLibraryName("onnxruntime"), System.mapLibraryName("onnxruntime4j_jni"));
    ClassLoader cl = OrtNatives.class.getClassLoader();
    for (String n : names) {
      if (cl.getResource(prefix + n) == null) {
        return Optional.empty();
      }
    }
    String id = sha256(cl, prefix + names.get(0)).substring(0, 16);
    Path dir = root.resolve("onnxruntime-" + platform + "-" + id);
    Files.createDirectories(dir);
    for (String n : names) {
      Path target = dir.resolve(n);
      String want = sha256(cl, prefix + n);
      if (Files.isRegularFile(target) && want.equals(sha256(target))) {
        continue;
      }
      Path tmp = Files.createTempFile(dir, n, ".part");
      try (InputStream in = cl.getResourceAsStream(prefix + n)) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    return Optional.of(dir);
  }

  /** ONNX Runtime's name for this platform ("linux-x64", "osx-aarch64", "win-x64", ...). */
  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String o = os.contains("mac") ? "osx" : os.contains("win") ? "win" : "linux";
    String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : arch;
    return o + "-" + a;
  }

  private static String sha256(ClassLoader cl, String resource) throws IOException {
    try (InputStream in = cl.getResourceAsStream(resource)) {
      return digest(in);
    }
  }

  private static String sha256(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return digest(in);
    }
  }

  private static String digest(InputStream in) throws IOException {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      try (DigestInputStream d = new DigestInputStream(in, md)) {
        d.transferTo(java.io.OutputStream.nullOutputStream());
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
