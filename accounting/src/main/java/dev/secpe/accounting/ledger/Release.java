package dev.secpe.accounting.ledger;

/**
 * One noisy release on the {@link PrivacyLedger}.
 *
 * @param id a stable identifier (e.g. "augpe/round-3/votes"); a resumed run looks releases up
 *     by it and never draws the same release twice
 * @param mechanism the mechanism, e.g. "Gaussian", "Laplace", "AboveThreshold"
 * @param protects what the release is about, e.g. "vote histogram over 2000 candidates"
 * @param sensitivity the sensitivity the noise was calibrated to
 * @param noiseScale the noise scale (standard deviation for Gaussian, b for Laplace)
 * @param cost how the accountant composes it
 */
public record Release(
    String id,
    String mechanism,
    String protects,
    double sensitivity,
    double noiseScale,
    PrivacyCost cost) {}
