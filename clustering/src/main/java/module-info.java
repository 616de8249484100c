/**
 * The voting kernels: nearest-neighbour votes on the pure-Java kernel or, where an add-on is
 * present, on OpenBLAS ({@code secpe-kernel-openblas}) or ND4J; SecPE's secret-aware clustering and
 * exact mergeable aggregates.
 *
 * <p>Native backends are optional; without them the pure-Java kernel runs, with the same
 * results. ND4J ({@code secpe-kernel-nd4j}) is the older one, kept for its CUDA build. ND4J's
 * jars cannot be modules (their descriptors are invalid), so an application
 * on the module path puts them on the class path and adds {@code --add-modules jdk.unsupported}
 * (or {@code requires jdk.unsupported} in its own descriptor): JavaCPP needs {@code
 * sun.misc.Unsafe}. This module then reads the class path by itself. Without that module the
 * kernel keeps to pure Java, and {@code Backend.ND4J} fails naming the option. The Vector API
 * scan of native tiles comes with {@code secpe-kernel-openblas} (a {@code TileScan} service, where
 * the application adds {@code jdk.incubator.vector}): this module never requires the incubator
 * module, so an application compiled against it sees no incubator warning. Package {@code internal} (the benchmark probe) is not exported;
 * package {@code spi}, the native GEMM and tile-scan services, is exported to the add-ons that provide them only
 * ({@code secpe-kernel-openblas} and {@code secpe-kernel-cuda}, which this module cannot see when it
 * is compiled: hence the suppressed "module not found" warning).
 */
@SuppressWarnings("module")
module dev.secpe.clustering {
  requires static org.jspecify;
  requires transitive dev.secpe.core;
  requires static nd4j.api;
  requires static nd4j.common;

  exports dev.secpe.clustering;
  exports dev.secpe.clustering.spi to dev.secpe.kernel.openblas, dev.secpe.kernel.cuda;

  uses dev.secpe.clustering.spi.NativeGemm;
  uses dev.secpe.clustering.spi.TileScan.Provider;
}
