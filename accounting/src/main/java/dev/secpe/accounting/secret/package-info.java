/** SecPE's SECRETNOISE (Algorithm 1): the LP (6), sampling probabilities and sigma calibration. */
package dev.secpe.accounting.secret;
