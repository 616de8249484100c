package dev.secpe.accounting.ortools;

import com.google.ortools.Loader;
import dev.secpe.natives.NativeCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * OR-Tools' native libraries (about 69 MB on Linux), extracted once to the per-user cache of
 * {@link NativeCache} and loaded from there with {@link System#load}, instead of {@link
 * Loader#loadNativeLibraries()}, which copies them into a fresh directory of the system temporary
 * directory on every load and leaves them there after {@code kill -9}.
 *
 * <p>Where the cache cannot be used (not writable, the natives jar nested in another jar, a
 * platform OR-Tools ships no natives for), OR-Tools' own loader runs as before.
 *
 * <p>Before anything touches OR-Tools, {@link #load()} makes this module read the module that
 * holds OR-Tools' classes: the descriptor cannot require OR-Tools, which has no module name of its
 * own (module-info).
 */
final class OrToolsNatives {

  /** A class of {@code ortools-java}, named so that finding it links nothing. */
  private static final String LOADER = "com.google.ortools.Loader";

  private static boolean loaded;

  private OrToolsNatives() {}

  /**
   * Loads the libraries once per class loader.
   *
   * @throws IllegalStateException if OR-Tools' classes cannot be found (see {@link #readOrTools})
   */
  static synchronized void load() {
    if (loaded) {
      return;
    }
    readOrTools();
    try {
      loadFrom(NativeCache.root());
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      Loader.loadNativeLibraries();
    }
    loaded = true;
  }

  /**
   * On the module path, makes this module read the module OR-Tools' classes were loaded into: the
   * class path's unnamed module, or the automatic module of {@code ortools-java} on the module
   * path. On the class path this module reads everything already.
   *
   * @throws IllegalStateException if the class loader cannot find OR-Tools
   */
  static void readOrTools() {
    Module self = OrToolsNatives.class.getModule();
    if (!self.isNamed()) {
      return;
    }
    Class<?> loader;
    try {
      loader = Class.forName(LOADER, false, OrToolsNatives.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("OR-Tools' classes (" + LOADER + ") are not loadable: put"
          + " com.google.ortools:ortools-java on the class path, or on the module path where some"
          + " automatic module is resolved (else add it with --add-modules and its module name)", e);
    }
    self.addReads(loader.getModule());
  }

  /**
   * Extracts (or reuses) this platform's libraries under {@code root} and loads them; returns their
   * directory.
   *
   * @throws IOException when there are none for this platform or the cache cannot be written
   */
  static Path loadFrom(Path root) throws IOException {
    String platform = platform().orElseThrow(() -> new IOException("OR-Tools ships no natives for this platform"));
    String dir = "ortools-" + platform + "/";
    ClassLoader cl = Loader.class.getClassLoader();
    List<String> names = NativeCache.list(cl, dir);
    if (names.isEmpty()) {
      throw new IOException("no " + dir + " on the class path");
    }
    Path cached = NativeCache.extract(root, "ortools-" + platform, cl, dir, names);
    for (String lib : loadOrder(platform)) {
      System.load(cached.resolve(System.mapLibraryName(lib)).toAbsolutePath().toString());
    }
    return cached;
  }

  /**
   * The libraries to load, in order: on Linux and macOS the JNI library finds the others next to
   * it (its run path is {@code $ORIGIN} / {@code @loader_path}); Windows has no such path, so the
   * DLLs are loaded dependencies first, as OR-Tools' own loader does.
   */
  static List<String> loadOrder(String platform) {
    return platform.startsWith("win32")
        ? List.of("zlib1", "bz2", "abseil_dll", "re2", "libutf8_validity", "libprotobuf", "highs", "libscip",
            "ortools", "jniortools")
        : List.of("jniortools");
  }

  /** OR-Tools' name for this platform's natives artifact ({@code linux-x86-64}, {@code darwin-aarch64}, ...). */
  static Optional<String> platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String o = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "darwin" : os.startsWith("windows") ? "win32" : null;
    String a = arch.equals("amd64") || arch.equals("x86_64") ? "x86-64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : null;
    return o == null || a == null ? Optional.empty() : Optional.of(o + "-" + a);
  }
}
