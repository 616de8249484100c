/**
 * Privacy-loss-distribution accountant ({@link dev.secpe.accounting.pld.PrivacyLossDistribution}:
 * connect-the-dots pessimistic discretisation, FFT composition) for the Gaussian, Laplace,
 * Poisson-subsampled Gaussian and SecPE mixture pairs; the R&eacute;nyi-DP accountant of the
 * subsampled Gaussian as a cross-check ({@link dev.secpe.accounting.pld.RdpAccountant}); DP-SGD
 * noise calibration ({@link dev.secpe.accounting.pld.DpSgd}). Every solved value is rounded to
 * the conservative side.
 */
@NullMarked
package dev.secpe.accounting.pld;

import org.jspecify.annotations.NullMarked;
