/**
 * OR-Tools' GLOP and PDLP as {@link dev.secpe.accounting.secret.SecretLpSolver}s, registered with
 * {@link java.util.ServiceLoader}: on the class path, they let {@link
 * dev.secpe.accounting.secret.SecretNoise} solve LP pieces too large for the pure-Java simplex
 * ({@code LpSolver.AUTO}), or every piece when {@code LpSolver.GLOP} or {@code PDLP} is chosen.
 */
@NullMarked
package dev.secpe.accounting.ortools;

import org.jspecify.annotations.NullMarked;
