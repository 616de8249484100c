/** The {@code bin/secpe} command line (picocli); not a public library API. */
@NullMarked
package dev.secpe.cli;

import org.jspecify.annotations.NullMarked;
