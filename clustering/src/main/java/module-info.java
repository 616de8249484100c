/**
 * The voting kernels: nearest-neighbour votes on the pure-Java kernel or, where ND4J is
 * present, on its BLAS; SecPE's secret-aware clustering and exact mergeable aggregates.
 *
 * <p>ND4J is optional ({@code secpe-kernel-nd4j}); without it the pure-Java kernel runs, with the
 * same results. ND4J's jars cannot be modules (their descriptors are invalid), so an application
 * on the module path puts them on the class path and adds {@code --add-modules jdk.unsupported}
 * (or {@code requires jdk.unsupported} in its own descriptor): JavaCPP needs {@code
 * sun.misc.Unsafe}. This module then reads the class path by itself. Without that module the
 * kernel keeps to pure Java, and {@code Backend.ND4J} fails naming the option. The benchmark
 * package is not exported.
 */
module dev.secpe.clustering {
  requires static org.jspecify;
  requires transitive dev.secpe.core;
  requires static nd4j.api;
  requires static nd4j.common;

  exports dev.secpe.clustering;
}
