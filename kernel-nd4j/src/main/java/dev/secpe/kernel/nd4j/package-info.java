/**
 * Nothing to call: this artifact only brings ND4J and its platform's OpenBLAS natives, so that
 * {@code dev.secpe.clustering.NearestNeighbours} (backend {@code AUTO}) computes its inner
 * products natively. Without it the kernel runs its pure-Java loops, with the same results.
 */
@NullMarked
package dev.secpe.kernel.nd4j;

import org.jspecify.annotations.NullMarked;
