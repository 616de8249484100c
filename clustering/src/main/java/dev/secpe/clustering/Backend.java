package dev.secpe.clustering;

/** Which engine computes the inner products of the nearest-neighbour kernel. */
public enum Backend {
  /** ND4J if its native library loads on this machine, otherwise {@link #JAVA}. The default. */
  AUTO,
  /**
   * ND4J ({@code nd4j-native} with OpenBLAS by default; {@code nd4j-cuda-11.6} when the build's
   * {@code cuda} profile is active). Fails with {@link IllegalStateException} if ND4J cannot load.
   */
  ND4J,
  /** Plain Java, register-blocked loops; no native code. */
  JAVA
}
