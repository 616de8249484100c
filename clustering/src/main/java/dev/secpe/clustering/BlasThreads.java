package dev.secpe.clustering;

/**
 * The number of threads OpenBLAS may use inside one GEMM of the ND4J backend. This is a
 * process-wide setting of the native library, so it is an application's decision, never a side
 * effect of a kernel: OpenBLAS starts with one thread per core (or {@code OPENBLAS_NUM_THREADS} /
 * {@code OMP_NUM_THREADS}). With {@code threads} kernel workers each running its own GEMM, {@code
 * threads x blasThreads} should not exceed the cores (docs/clustering-performance.md).
 */
public final class BlasThreads {

  private BlasThreads() {}

  /** The current process-wide OpenBLAS thread count. */
  public static int get() {
    Nd4jRuntime.prepare();
    return org.nd4j.linalg.factory.Nd4j.factory().blas().getMaxThreads();
  }

  /**
   * Sets the process-wide OpenBLAS thread count for every ND4J GEMM in this JVM.
   *
   * @param threads in 1..1024
   */
  public static void setProcessWide(int threads) {
    if (threads < 1 || threads > 1024) {
      throw new IllegalArgumentException("threads must be in 1..1024, got threads=" + threads);
    }
    Nd4jRuntime.prepare();
    Nd4jScorer.setBlasThreads(threads);
  }
}
