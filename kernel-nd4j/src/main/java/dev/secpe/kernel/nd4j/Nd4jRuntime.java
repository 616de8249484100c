package dev.secpe.kernel.nd4j;

/**
 * What happens once before this module first touches ND4J: the OpenBLAS core type is chosen
 * ({@link OpenBlasCoreType}) and, on the module path, this module reads the class path.
 *
 * <p>On the module path ND4J can only be on the class path: its jars carry module descriptors
 * that the JDK rejects ({@code nd4j-api}: "Package org.nd4j.autodiff.validation.listeners not
 * found in module"). A named module does not read the class path's unnamed module, so this
 * module adds that edge for itself before linking against ND4J; on the class path it is a no-op.
 * ND4J's JavaCPP reads memory through {@code sun.misc.Unsafe}: the descriptor requires {@code
 * jdk.unsupported}, so an application launched with {@code java -m} resolves it.
 */
final class Nd4jRuntime {

  private static boolean prepared;

  private Nd4jRuntime() {}

  /** Idempotent; call before any class that links against ND4J runs. */
  static synchronized void prepare() {
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
