package dev.secpe.evolution.dpga;

/**
 * DPGA's vote noise, ours and the paper's.
 *
 * @param sigma the noise multiplier used (PLD over every release)
 * @param paperSigma what the paper's analysis would need for the same budget
 * @param paperEpsilonAtPldSigma the epsilon the paper's analysis would claim at {@code sigma}
 */
public record VoteCalibration(double sigma, double paperSigma, double paperEpsilonAtPldSigma) {}
