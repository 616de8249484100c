/**
 * Aug-PE's steps (internal): the Gaussian nearest-neighbour vote of every round and its selection
 * rules. The public face is {@link dev.secpe.evolution.AugPE}.
 */
@NullMarked
package dev.secpe.evolution.augpe;

import org.jspecify.annotations.NullMarked;
