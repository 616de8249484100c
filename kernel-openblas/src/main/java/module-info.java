/**
 * OpenBLAS for the vote kernel: add this module (artifact {@code secpe-kernel-openblas}) and the
 * kernel's inner products run on OpenBLAS 0.3.31 instead of the pure-Java loops, with the same
 * results. Exports nothing: it only provides the kernel's GEMM service.
 */
module dev.secpe.kernel.openblas {
  requires static org.jspecify;
  requires dev.secpe.clustering;
  requires org.bytedeco.javacpp;
  requires org.bytedeco.openblas;

  provides dev.secpe.clustering.spi.NativeGemm with dev.secpe.kernel.openblas.OpenBlasGemm;
}
