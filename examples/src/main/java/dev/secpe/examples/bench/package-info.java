/**
 * Benchmark comparisons against GPL-3.0 libraries (Smile). They live here, in the examples
 * module, so that no shipped module (clustering, cli) ever depends on GPL code.
 */
package dev.secpe.examples.bench;
