package dev.secpe.clustering;

/**
 * Which engine computes the inner products of the nearest-neighbour kernel. Every backend gives
 * the same winners (ties are decided on exact scores); they differ in speed only.
 */
public enum Backend {
  /**
   * CUDA where {@code secpe-kernel-cuda} is on the path, the CUDA 13 libraries load and a GPU
   * answers; else OpenBLAS where {@code secpe-kernel-openblas} is on the path and its native
   * library loads, else ND4J where {@code secpe-kernel-nd4j} is and loads, otherwise {@link
   * #JAVA}. The default. Why CUDA was not picked is logged once at DEBUG
   * ({@code dev.secpe.clustering}) and named by {@link #CUDA}'s error.
   */
  AUTO,
  /**
   * A GPU through CUDA 13 ({@code secpe-kernel-cuda}: cuBLAS for each tile's GEMM, the arg-max
   * fused on the device, the exact re-check on the CPU). Fails with {@link IllegalStateException}
   * naming the cause if the add-on is absent, the CUDA libraries do not load or no device answers.
   */
  CUDA,
  /**
   * OpenBLAS 0.3.31 through JavaCPP ({@code secpe-kernel-openblas}): the native GEMM to choose.
   * Fails with {@link IllegalStateException} if the add-on is absent or cannot load.
   */
  OPENBLAS,
  /**
   * ND4J ({@code nd4j-native} with its OpenBLAS 0.3.19, from {@code secpe-kernel-nd4j}; {@code
   * nd4j-cuda-11.6} when the build's {@code cuda} profile is active). Fails with {@link
   * IllegalStateException} if ND4J cannot load. Not together with {@link #OPENBLAS}'s add-on: the
   * two need different JavaCPP versions.
   */
  ND4J,
  /** Plain Java, register-blocked loops; no native code. */
  JAVA
}
