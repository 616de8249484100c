/**
 * The vote kernel's GEMM on ND4J: a {@code NativeGemm} service the kernel of {@code
 * dev.secpe.clustering} finds by itself ({@code Backend.ND4J}, or {@code AUTO} where neither the
 * CUDA nor the OpenBLAS add-on loads). Exports nothing.
 *
 * <p>ND4J's jars cannot be modules (their descriptors are invalid: {@code nd4j-api}'s names a
 * package it does not hold), so they go on the class path, and they are no module name this
 * descriptor could require: this module is compiled reading the class path, and reads the class
 * path's unnamed module by itself before it touches ND4J. It requires {@code jdk.unsupported},
 * which ND4J's JavaCPP needs ({@code sun.misc.Unsafe}), so that the JDK resolves it wherever this
 * module is on the module path.
 */
module dev.secpe.kernel.nd4j {
  requires static org.jspecify;
  requires dev.secpe.clustering;
  requires jdk.unsupported;

  provides dev.secpe.clustering.spi.NativeGemm with dev.secpe.kernel.nd4j.Nd4jGemm;
}
