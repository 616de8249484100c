/**
 * Privacy accounting: typed budgets ((p, r) secret protection per secret, mu-GDP, (epsilon,
 * delta)), their conversions ({@link dev.secpe.accounting.Gdp}), mechanism calibration ({@link
 * dev.secpe.accounting.Calibration}), tail-accurate normal functions ({@link
 * dev.secpe.accounting.StandardNormal}), and the preconditions every privacy parameter passes.
 *
 * <p>Every solved value lands on the conservative side (more noise, weaker claimed guarantee) and
 * states its tolerance; reference values are checked against 50-digit mpmath computations
 * ({@code accounting/src/test/python/gdp_reference.py}).
 */
@NullMarked
package dev.secpe.accounting;

import org.jspecify.annotations.NullMarked;
