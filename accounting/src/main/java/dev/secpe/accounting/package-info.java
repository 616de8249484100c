/**
 * Privacy accounting: typed budgets ((p, r) secret protection, mu-GDP, (epsilon, delta)), their
 * conversions, mechanism calibration, and the preconditions every privacy parameter passes.
 */
package dev.secpe.accounting;
