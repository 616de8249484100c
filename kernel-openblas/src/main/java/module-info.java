/**
 * OpenBLAS for the vote kernel: add this module (artifact {@code secpe-kernel-openblas}) and the
 * kernel's inner products run on OpenBLAS 0.3.31 instead of the pure-Java loops, with the same
 * results; where the application adds {@code jdk.incubator.vector}, the arg-max scan of each
 * native tile runs on the Vector API. Exports nothing: it only provides the kernel's services.
 */
module dev.secpe.kernel.openblas {
  requires static org.jspecify;
  requires dev.secpe.clustering;
  requires org.bytedeco.javacpp;
  requires org.bytedeco.openblas;
  // VectorTileScan uses the Vector API when the application adds this incubator module
  // (--add-modules jdk.incubator.vector); VectorTileScans loads it only then.
  requires static jdk.incubator.vector;

  provides dev.secpe.clustering.spi.NativeGemm with dev.secpe.kernel.openblas.OpenBlasGemm;
  provides dev.secpe.clustering.spi.TileScan.Provider with dev.secpe.kernel.openblas.VectorTileScans;
}
