/**
 * The vote kernel's tile GEMM on ND4J ({@code nd4j-native} with its OpenBLAS 0.3.19; {@code
 * nd4j-cuda-11.6} in a build with the {@code cuda} profile), provided to {@code
 * dev.secpe.clustering} as the {@code NativeGemm} service named {@code "nd4j"}. Nothing to call:
 * with this artifact on the path, {@code NearestNeighbours} (backend {@code AUTO} where neither
 * {@code secpe-kernel-cuda} nor {@code secpe-kernel-openblas} loads, or {@code ND4J}) computes its
 * inner products here. Without it the kernel runs its pure-Java loops, with the same results.
 */
@NullMarked
package dev.secpe.kernel.nd4j;

import org.jspecify.annotations.NullMarked;
