/**
 * The vote kernel's native GEMM on OpenBLAS 0.3.31 ({@code org.bytedeco:openblas}): a service
 * provider of {@code secpe-clustering}; add the artifact and {@code Backend.AUTO} uses it.
 */
@NullMarked
package dev.secpe.kernel.openblas;

import org.jspecify.annotations.NullMarked;
