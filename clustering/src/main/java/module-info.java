/**
 * The voting kernels: nearest-neighbour votes on the pure-Java kernel or, where an add-on is
 * present, on a GPU ({@code secpe-kernel-cuda}), OpenBLAS ({@code secpe-kernel-openblas}) or ND4J
 * ({@code secpe-kernel-nd4j}); SecPE's secret-aware clustering and exact mergeable aggregates.
 *
 * <p>Native backends are optional; without them the pure-Java kernel runs, with the same
 * results. Each add-on provides the {@code NativeGemm} service, found through {@link
 * java.util.ServiceLoader}; this module requires none of them and no native library. ND4J
 * ({@code secpe-kernel-nd4j}) is the older one, kept for its CUDA build. The Vector API scan of
 * native tiles comes with {@code secpe-kernel-openblas} (a {@code TileScan} service, where the
 * application adds {@code jdk.incubator.vector}): this module never requires the incubator
 * module, so an application compiled against it sees no incubator warning. Package {@code
 * internal} (the benchmark probe) is not exported; package {@code spi}, the native GEMM and
 * tile-scan services, is exported to the add-ons that provide them only ({@code
 * secpe-kernel-openblas}, {@code secpe-kernel-cuda} and {@code secpe-kernel-nd4j}, which this
 * module cannot see when it is compiled: hence the suppressed "module not found" warning).
 */
@SuppressWarnings("module")
module dev.secpe.clustering {
  requires static org.jspecify;
  requires transitive dev.secpe.core;

  exports dev.secpe.clustering;
  exports dev.secpe.clustering.spi to
      dev.secpe.kernel.openblas,
      dev.secpe.kernel.cuda,
      dev.secpe.kernel.nd4j;

  uses dev.secpe.clustering.spi.NativeGemm;
  uses dev.secpe.clustering.spi.TileScan.Provider;
}
