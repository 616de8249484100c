/** The evolution engine and the SecPE, Aug-PE, DPGA and CTCL builders. */
package dev.secpe.evolution;
