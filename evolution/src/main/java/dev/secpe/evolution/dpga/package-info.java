/**
 * DPGA-TextSyn's steps (internal): the DP metadata, the subsampled Gaussian votes, similarity
 * suppression and the genetic operators, and the privacy plan solved at {@code build()}. The
 * public face is {@link dev.secpe.evolution.DPGA}.
 */
@NullMarked
package dev.secpe.evolution.dpga;

import org.jspecify.annotations.NullMarked;
