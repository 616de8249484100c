/**
 * CTCL's steps (internal): the public topic model, the DP topic histogram, the DP fine-tuning
 * and conditional generation, and the privacy plan solved at {@code build()}. The public face is
 * {@link dev.secpe.evolution.CTCL}.
 */
@NullMarked
package dev.secpe.evolution.ctcl;

import org.jspecify.annotations.NullMarked;
