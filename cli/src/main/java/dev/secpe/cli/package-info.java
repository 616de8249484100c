/** The {@code bin/secpe} command line (picocli); not a public library API. */
package dev.secpe.cli;
