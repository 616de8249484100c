/**
 * Secure noise samplers: exact discrete Gaussian and discrete Laplace (Canonne, Kamath and
 * Steinke 2020) in rational arithmetic, and real-valued Gaussian and Laplace noise on a
 * power-of-two lattice (against Mironov's 2012 floating-point attack). {@link
 * dev.secpe.accounting.noise.NoiseSources#secure()} is the default; the seeded source exists only
 * as {@link dev.secpe.accounting.noise.NoiseSources#reproducibleForTests(long)} and reports
 * itself non-private.
 */
@NullMarked
package dev.secpe.accounting.noise;

import org.jspecify.annotations.NullMarked;
