package dev.secpe.evolution.ctcl;

/**
 * CTCL's solved fine-tuning noise and what each part costs at the run's delta (the entry point
 * hands it to users as {@code CTCL.Accounting}).
 *
 * @param noiseMultiplier z
 * @param samplingRate q = B / N
 * @param histogramEpsilon epsilon of the histogram alone
 * @param fineTuningEpsilon epsilon of the fine-tuning alone
 * @param composedEpsilon epsilon of both (PLD composition), at most the budget's
 */
public record FineTuningNoise(
    double noiseMultiplier, double samplingRate, double histogramEpsilon, double fineTuningEpsilon, double composedEpsilon) {}
