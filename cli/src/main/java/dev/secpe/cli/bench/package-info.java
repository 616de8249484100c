/**
 * Benchmark harnesses behind {@code secpe bench}: the kernel against a numpy reference run on
 * the same data in the same run, and the Aug-PE vote against SecPE's representative vote. They
 * print ratios; nothing here is asserted in tests. Not a stable API.
 */
@NullMarked
package dev.secpe.cli.bench;

import org.jspecify.annotations.NullMarked;
