/**
 * {@code bin/secpe demo}: the method comparison on the bundled e-mails (several seeds and r/p
 * ratios), its per-round metrics and its HTML report.
 */
@NullMarked
package dev.secpe.cli.demo;

import org.jspecify.annotations.NullMarked;
