/**
 * The blocked nearest-neighbour kernel, k-means and SecPE's secret clustering.
 *
 * <ul>
 *   <li>{@link dev.secpe.clustering.NearestNeighbours}: for each row of A its nearest row(s) of
 *       B, by cosine or squared L2, blocked (bounded memory for any |A|), multi-threaded, in
 *       plain Java or on a native GEMM add-on (CUDA, OpenBLAS, ND4J), with exact, deterministic
 *       ties.
 *   <li>{@link dev.secpe.clustering.KMeans}: k-means++ / k-means|| seeding, Lloyd iterations on
 *       the kernel, explicit seeds and restarts, an empty-cluster policy, monotone inertia.
 *   <li>{@link dev.secpe.clustering.SecretClustering}: SecPE Algorithm 2 (noisy counts and
 *       centres, eq. 7), charged to the privacy ledger before any noise is drawn. (The votes
 *       themselves are the engine's: {@code dev.secpe.evolution}.)
 * </ul>
 *
 * <p>The public API takes and returns plain arrays, {@link dev.secpe.core.EmbeddingMatrix}
 * and records; native libraries stay inside the add-on modules.
 */
@NullMarked
package dev.secpe.clustering;

import org.jspecify.annotations.NullMarked;
