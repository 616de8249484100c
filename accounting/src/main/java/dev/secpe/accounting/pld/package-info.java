/** Privacy-loss-distribution accountant (pessimistic discretisation, FFT composition) and RDP. */
package dev.secpe.accounting.pld;
