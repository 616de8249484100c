package dev.secpe.clustering;

/**
 * What happens once before this module first touches ND4J: the OpenBLAS core type is chosen
 * ({@link OpenBlasCoreType}) and, on the module path, this module reads the class path.
 *
 * <p>On the module path ND4J can only be on the class path: its jars carry module descriptors
 * that the JDK rejects ({@code nd4j-api}: "Package org.nd4j.autodiff.validation.listeners not
 * found in module"). A named module does not read the class path's unnamed module, so this
 * module adds that edge for itself before linking against ND4J; on the class path it is a no-op.
 *
 * <p>ND4J's JavaCPP reads memory through {@code sun.misc.Unsafe} (module {@code jdk.unsupported}).
 * An application launched with {@code java -m} resolves only the modules its graph requires, so
 * without {@code --add-modules jdk.unsupported} (or {@code requires jdk.unsupported} in its
 * descriptor) ND4J would load and then fail inside its first GEMM; this class refuses it up front
 * instead, so {@link Backend#AUTO} keeps to the pure-Java kernel and {@link Backend#ND4J} fails
 * with that remedy in the message.
 */
final class Nd4jRuntime {

  private static boolean prepared;

  private Nd4jRuntime() {}

  /**
   * Idempotent; call before any class that links against ND4J runs.
   *
   * @throws IllegalStateException if the JVM lacks the {@code jdk.unsupported} module
   */
  static synchronized void prepare() {
    if (ModuleLayer.boot().findModule("jdk.unsupported").isEmpty()) {
      throw new IllegalStateException("ND4J needs the jdk.unsupported module, which this JVM did not"
          + " resolve: launch with --add-modules jdk.unsupported (or add 'requires jdk.unsupported'"
          + " to the application's module-info)");
    }
    if (prepared) {
      return;
    }
    prepared = true;
    OpenBlasCoreType.applyBeforeLoad();
    Module self = Nd4jRuntime.class.getModule();
    ClassLoader loader = Nd4jRuntime.class.getClassLoader();
    if (self.isNamed() && loader != null) {
      self.addReads(loader.getUnnamedModule());
    }
  }
}
