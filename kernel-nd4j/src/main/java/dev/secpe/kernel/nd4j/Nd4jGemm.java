package dev.secpe.kernel.nd4j;

import dev.secpe.clustering.spi.NativeGemm;

/**
 * The vote kernel's GEMM on ND4J: one float GEMM {@code C = A_block * B_chunk^T} per tile
 * ({@code Nd4j.gemm}), row-major tiles read in place by the kernel's scan. Found by the kernel
 * through {@link java.util.ServiceLoader} under the name {@code "nd4j"}; applications never call
 * it.
 *
 * <p>This class links nothing of ND4J, so that the kernel's look-up of every add-on instantiates it
 * safely wherever ND4J is missing; the ND4J calls are in {@link Nd4jArrays}, which runs only after
 * {@link #load()} prepared the JVM for ND4J ({@link Nd4jRuntime}: the OpenBLAS core type, and the
 * read edge to the class path on the module path).
 */
public final class Nd4jGemm implements NativeGemm {

  /** For {@link java.util.ServiceLoader}. */
  public Nd4jGemm() {}

  @Override
  public String name() {
    return "nd4j";
  }

  /**
   * Prepares the JVM once and initialises ND4J.
   *
   * @return the simple class name of ND4J's backend ({@code "CpuBackend"}, {@code "JCublasBackend"})
   */
  @Override
  public String load() {
    Nd4jRuntime.prepare();
    return Nd4jArrays.backend();
  }

  /** ND4J's process-wide BLAS thread count (its OpenBLAS's). */
  @Override
  public int threads() {
    load();
    return Nd4jArrays.blasThreads();
  }

  @Override
  public void setThreads(int threads) {
    NativeGemm.requireThreads(threads);
    load();
    Nd4jArrays.setBlasThreads(threads);
  }

  @Override
  public Chunks chunks(float[] b, int d, int[] starts, int[] widths) {
    NativeGemm.requireChunkShape(d, starts, widths);
    load();
    return new Nd4jArrays.BChunks(b, d, starts, widths);
  }
}
