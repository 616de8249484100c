package dev.secpe.llm.embedded;

import ai.onnxruntime.OrtEnvironment;
import dev.secpe.natives.NativeCache;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * ONNX Runtime's native libraries, extracted once to a per-user cache directory and loaded from
 * there ({@code onnxruntime.native.path}), instead of being copied into a fresh directory of the
 * system temporary directory on every start. That copy left an {@code onnxruntime-java*}
 * directory behind after every run, and 16 MB of libraries after a killed one.
 *
 * <p>The cache and its checks are {@link NativeCache}'s ({@code secpe.native.cache}, {@code
 * $XDG_CACHE_HOME/secpe/native} or {@code ~/.cache/secpe/native}; one directory per platform and
 * library content; written by rename; verified by SHA-256 on every start). A user who sets {@code
 * onnxruntime.native.path} keeps it; where the cache cannot be written, ONNX Runtime's own
 * extraction is used as before.
 */
final class OrtNatives {

  private static volatile boolean prepared;

  private OrtNatives() {}

  private static boolean temporaryDirectoryChecked;

  /**
   * ONNX Runtime's environment, its libraries loaded from the cache ({@link #prepare}); the first
   * call also removes the empty directory ONNX Runtime leaves in the temporary directory ({@link
   * #removeEmptyTemporaryDirectory}), once: it is created once per JVM.
   */
  static synchronized OrtEnvironment environment() {
    prepare();
    OrtEnvironment environment = OrtEnvironment.getEnvironment();
    if (!temporaryDirectoryChecked) {
      temporaryDirectoryChecked = true;
      removeEmptyTemporaryDirectory();
    }
    return environment;
  }

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

  /** Provider libraries ONNX Runtime extracts on demand into its temporary directory. */
  private static final List<String> ON_DEMAND_PROVIDERS = List.of(
      "onnxruntime_providers_cuda", "onnxruntime_providers_rocm", "onnxruntime_providers_dnnl",
      "onnxruntime_providers_openvino", "onnxruntime_providers_tensorrt", "onnxruntime_providers_qnn");

  /**
   * Removes ONNX Runtime's temporary directory once it is initialised, where that directory is
   * empty and nothing can need it later. ONNX Runtime 1.23 creates an {@code onnxruntime-java*}
   * directory in the system temporary directory on every start, even when it loads its libraries
   * from elsewhere, and removes it only at a normal JVM exit ({@code deleteOnExit}), for provider
   * libraries it may extract later: a killed JVM left an empty directory behind each time. It is
   * kept where this platform's ONNX Runtime jar carries such a provider (a GPU build), where it is
   * not empty, and where its location cannot be read (then ONNX Runtime removes it at exit, as
   * before).
   */
  private static void removeEmptyTemporaryDirectory() {
    try {
      ClassLoader cl = OrtNatives.class.getClassLoader();
      String dir = "ai/onnxruntime/native/" + platform() + "/";
      for (String p : ON_DEMAND_PROVIDERS) {
        if (cl.getResource(dir + System.mapLibraryName(p)) != null) {
          return;
        }
      }
      Field f = Class.forName("ai.onnxruntime.OnnxRuntime").getDeclaredField("tempDirectory");
      f.setAccessible(true); // an automatic module (or the class path): open to reflection
      if (f.get(null) instanceof Path temp) {
        Files.deleteIfExists(temp); // refused when not empty: then it stays for ONNX Runtime
      }
    } catch (ReflectiveOperationException | IOException | RuntimeException e) {
      // Another ONNX Runtime version or a closed module: its own exit-time removal stays.
    }
  }

  /** The per-user cache root. */
  static Path cacheRoot() {
    return NativeCache.root();
  }

  /**
   * Extracts this platform's ONNX Runtime libraries under {@code root} (reusing a complete earlier
   * extraction) and returns their directory; empty when the jar has none for this platform.
   */
  static Optional<Path> extract(Path root) throws IOException {
    String platform = platform();
    String dir = "ai/onnxruntime/native/" + platform + "/";
    List<String> names = List.of(System.mapLibraryName("onnxruntime"), System.mapLibraryName("onnxruntime4j_jni"));
    ClassLoader cl = OrtNatives.class.getClassLoader();
    for (String n : names) {
      if (cl.getResource(dir + n) == null) {
        return Optional.empty();
      }
    }
    return Optional.of(NativeCache.extract(root, "onnxruntime-" + platform, cl, dir, names));
  }

  /** ONNX Runtime's name for this platform ("linux-x64", "osx-aarch64", "win-x64", ...). */
  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String o = os.contains("mac") ? "osx" : os.contains("win") ? "win" : "linux";
    String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : arch;
    return o + "-" + a;
  }
}
