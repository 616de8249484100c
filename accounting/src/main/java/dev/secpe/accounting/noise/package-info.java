/** Secure noise samplers: continuous and exact discrete Gaussian and Laplace. */
package dev.secpe.accounting.noise;
