/**
 * Internal service interface between the vote kernel and its native GEMM add-ons ({@code
 * secpe-kernel-openblas}, {@code secpe-kernel-cuda}, {@code secpe-kernel-nd4j}): exported only to
 * those modules. Applications choose a backend with
 * {@link dev.secpe.clustering.NearestNeighbours.Builder#backend} and never use this package.
 */
@NullMarked
package dev.secpe.clustering.spi;

import org.jspecify.annotations.NullMarked;
