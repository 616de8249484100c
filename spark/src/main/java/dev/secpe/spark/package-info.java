/**
 * SecPE and Aug-PE on Apache Spark: {@link dev.secpe.spark.SparkPrivateStore} keeps the private
 * records on the executors, which embed them, scan them for secrets, count nearest-neighbour
 * votes against broadcast candidates and sum clipped vectors per centre for a sampled mask. The
 * driver keeps the ledger, every noise draw and every sampling mask, and the run is the same
 * {@code SecPE.builder()} / {@code AugPE.builder()} run with {@code privateStore(store)} in place
 * of {@code privateData(dataset)}. Spark is a provided dependency: bring your cluster's.
 */
@NullMarked
package dev.secpe.spark;

import org.jspecify.annotations.NullMarked;
