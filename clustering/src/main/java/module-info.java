/**
 * The voting kernels: nearest-neighbour votes on the pure-Java kernel or, where ND4J is
 * present, on its BLAS; SecPE's secret-aware clustering and exact mergeable aggregates.
 *
 * <p>ND4J is optional ({@code secpe-kernel-nd4j}). On the module path it is used when the
 * application resolves it ({@code --add-modules nd4j.api,nd4j.cpu,jdk.unsupported}); otherwise
 * the pure-Java kernel runs, with the same results. Likewise the Vector API (incubator module
 * {@code jdk.incubator.vector}) speeds up the arg-max scan where it is added, and is never
 * required. Package {@code internal} (the benchmark probe) is not exported.
 */
module dev.secpe.clustering {
  requires transitive dev.secpe.core;
  requires static nd4j.api;
  requires static nd4j.common;
  // The arg-max scan uses the Vector API when the application adds this incubator module
  // (--add-modules jdk.incubator.vector); without it the scalar scan runs (RowScan.preferred).
  requires static jdk.incubator.vector;

  exports dev.secpe.clustering;
}
