/**
 * SecPE's SECRETNOISE (Algorithm 1): the LP (6) ({@link dev.secpe.accounting.secret.SecretNoise}),
 * sampling probabilities and sigma calibration, and the blow-up function of the mixture
 * dominating pair with its inverse in sigma ({@link dev.secpe.accounting.secret.MixtureBlowUp}):
 * exact for one release, through the PLD accountant for several. Deviations from the paper's
 * text follow docs/math-decisions.md §3 and are stated where they apply.
 */
@NullMarked
package dev.secpe.accounting.secret;

import org.jspecify.annotations.NullMarked;
