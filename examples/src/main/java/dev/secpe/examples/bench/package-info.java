/**
 * Benchmark comparisons against GPL-3.0 libraries (Smile). They live here, in the examples
 * module, so that no shipped module (clustering, cli) ever depends on GPL code.
 */
@NullMarked
package dev.secpe.examples.bench;

import org.jspecify.annotations.NullMarked;
