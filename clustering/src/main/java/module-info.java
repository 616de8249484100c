/**
 * The voting kernels: nearest-neighbour votes on the pure-Java kernel or, where ND4J is
 * present, on its BLAS; SecPE's secret-aware clustering and exact mergeable aggregates.
 *
 * <p>ND4J is optional ({@code secpe-kernel-nd4j}). On the module path it is used when the
 * application resolves it ({@code --add-modules nd4j.api,nd4j.cpu,jdk.unsupported}); otherwise
 * the pure-Java kernel runs, with the same results. The benchmark package is not exported.
 */
module dev.secpe.clustering {
  requires static org.jspecify;
  requires transitive dev.secpe.core;
  requires static nd4j.api;
  requires static nd4j.common;

  exports dev.secpe.clustering;
}
