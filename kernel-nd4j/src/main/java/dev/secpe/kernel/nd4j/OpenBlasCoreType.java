package dev.secpe.kernel.nd4j;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Tells OpenBLAS which CPU kernels to use before ND4J loads it, as {@code bin/secpe} does for the
 * command line. OpenBLAS 0.3.19 (ND4J's) reads {@code OPENBLAS_CORETYPE} once, when the library
 * loads, and does not recognise recent AVX-512 processors (on this project's AMD EPYC it picks its
 * "Zen" AVX2 kernels), so without the variable the GEMM runs well below what the CPU can do, with
 * no sign of it. Java cannot set an environment variable, but the C library can, and OpenBLAS reads
 * the C environment: this class calls {@code setenv} through JNA (which this artifact brings)
 * once, before the first ND4J call.
 *
 * <p>The rule, on Linux only: when {@code OPENBLAS_CORETYPE} is unset and {@code /proc/cpuinfo}
 * lists {@code avx512f}, {@code avx512bw}, {@code avx512dq} and {@code avx512vl} (what OpenBLAS's
 * SkylakeX kernels use), it becomes {@code SKYLAKEX}. The system property {@code
 * secpe.openblas.coretype} overrides the rule: {@code none} leaves the environment alone, any
 * other value is set as the core type (where the variable is unset). A variable the user set is
 * never replaced; where JNA is absent, or OpenBLAS was already loaded by someone else, nothing
 * changes. What was done is logged once at DEBUG on the kernel's logger ({@code
 * dev.secpe.clustering}).
 */
final class OpenBlasCoreType {

  /** The system property that overrides the rule. */
  static final String PROPERTY = "secpe.openblas.coretype";

  static final String VARIABLE = "OPENBLAS_CORETYPE";

  private static final Set<String> SKYLAKEX_FLAGS = Set.of("avx512f", "avx512bw", "avx512dq", "avx512vl");

  private OpenBlasCoreType() {}

  /** Sets the variable where the rule says so; returns the value set, if any. Never throws. */
  static Optional<String> applyBeforeLoad() {
    try {
      Optional<String> value = choose(System.getProperty(PROPERTY), System.getenv(VARIABLE),
          System.getProperty("os.name", ""), cpuFlags());
      if (value.isPresent() && !setenv(VARIABLE, value.get())) {
        log("JNA is not available: OPENBLAS_CORETYPE left unset");
        return Optional.empty();
      }
      value.ifPresent(v -> log("set OPENBLAS_CORETYPE=" + v + " before loading OpenBLAS"
          + " (-D" + PROPERTY + "=none to keep OpenBLAS's own choice)"));
      return value;
    } catch (RuntimeException | LinkageError e) {
      log("OPENBLAS_CORETYPE left unset: " + e.getClass().getSimpleName());
      return Optional.empty();
    }
  }

  /**
   * The core type to set, from the property, the current variable, the OS and the CPU flags.
   * Package-private for the test of the rule.
   */
  static Optional<String> choose(String property, String variable, String osName, Set<String> flags) {
    if (variable != null && !variable.isEmpty()) {
      return Optional.empty(); // the user's choice
    }
    if (property != null && !property.isBlank()) {
      return property.trim().equalsIgnoreCase("none") ? Optional.empty() : Optional.of(property.trim());
    }
    if (osName.toLowerCase(Locale.ROOT).startsWith("linux") && flags.containsAll(SKYLAKEX_FLAGS)) {
      return Optional.of("SKYLAKEX");
    }
    return Optional.empty();
  }

  /** The flags of the first processor in /proc/cpuinfo (empty where there is none). */
  static Set<String> cpuFlags() {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuinfo)) {
      return Set.of();
    }
    try {
      List<String> lines = Files.readAllLines(cpuinfo);
      for (String line : lines) {
        if (line.startsWith("flags")) {
          int colon = line.indexOf(':');
          return Set.of(line.substring(colon + 1).trim().split("\\s+"));
        }
      }
    } catch (IOException | RuntimeException e) {
      // unreadable: no flags, no change
    }
    return Set.of();
  }

  /** {@code setenv(name, value, 0)} through JNA's LibC, found reflectively; false without JNA. */
  private static boolean setenv(String name, String value) throws LinkageError {
    try {
      Class<?> libc = Class.forName("com.sun.jna.platform.unix.LibC", true,
          OpenBlasCoreType.class.getClassLoader());
      Object instance = libc.getField("INSTANCE").get(null);
      Method setenv = libc.getMethod("setenv", String.class, String.class, int.class);
      return ((Integer) setenv.invoke(instance, name, value, 0)) == 0;
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  private static void log(String message) {
    System.getLogger("dev.secpe.clustering").log(System.Logger.Level.DEBUG, message);
  }
}
