/**
 * SecPE's steps (internal): secret detection, SECRETNOISE calibration, the secret-clustering
 * release and the representative vote, allocation and shrinkage. The public face is {@link
 * dev.secpe.evolution.SecPE}.
 */
@NullMarked
package dev.secpe.evolution.secpe;

import org.jspecify.annotations.NullMarked;
