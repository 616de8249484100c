package dev.secpe.clustering;

import dev.secpe.clustering.spi.NativeGemm;

/**
 * The number of threads the native BLAS may use inside one GEMM of the kernel (OpenBLAS, from
 * {@code secpe-kernel-openblas} or ND4J's). This is a process-wide setting of the native library,
 * so it is an application's decision, never a side effect of a kernel: OpenBLAS starts with one
 * thread per core (or {@code OPENBLAS_NUM_THREADS} / {@code OMP_NUM_THREADS}). With {@code
 * threads} kernel workers each running its own GEMM, {@code threads x blasThreads} should not
 * exceed the cores (docs/clustering-performance.md).
 */
public final class BlasThreads {

  private BlasThreads() {}

  /**
   * The current process-wide thread count of the native BLAS that {@link Backend#AUTO} uses
   * (OpenBLAS's add-on, else ND4J's).
   *
   * @throws IllegalStateException if neither native backend loads
   */
  public static int get() {
    return nativeBlas().threads();
  }

  /** The OpenBLAS add-on where it loads, else ND4J's where it loads. */
  private static NativeGemm nativeBlas() {
    NativeGemm g = NearestNeighbours.openBlas();
    if (g == null) {
      g = NearestNeighbours.nd4j();
    }
    if (g == null) {
      throw new IllegalStateException("no native BLAS loads: add dev.secpe:secpe-kernel-openblas"
          + " (the pure-Java kernel has no BLAS threads)");
    }
    return g;
  }

  /**
   * Sets the process-wide thread count of the native BLAS that {@link Backend#AUTO} uses (the
   * OpenBLAS add-on where it loads, else ND4J's OpenBLAS) for every GEMM in this JVM.
   *
   * @param threads in 1..1024
   * @throws IllegalStateException if neither native backend loads
   */
  public static void setProcessWide(int threads) {
    Require.threads(threads);
    nativeBlas().setThreads(threads);
  }
}
