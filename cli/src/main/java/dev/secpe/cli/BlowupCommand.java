package dev.secpe.cli;

import dev.secpe.accounting.secret.MixtureBlowUp;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code secpe privacy blowup}: B(alpha) of the SecPE mixture pair. */
@Command(
    name = "blowup",
    description = {
      "Blow-up B(alpha) = sup{P(E) : Q(E) <= alpha} of P = N(c S, sigma^2)^T vs Q = N(0, sigma^2)^T,"
          + " S ~ PoissonBinomial(shift-probs): exact (Neyman-Pearson) for one round, an upper"
          + " bound from the PLD accountant for T > 1. Prints {\"blowup\": ...}, rounded up.",
      "The shift multiplier c is 1 unless --shift-multiplier is given (sqrt(2) = 1.41421356..."
          + " for SecPE's counts-and-centres release)."
    })
final class BlowupCommand extends PrivacyOptions.JsonAnswer {

  @Option(names = "--sigma", required = true, description = "noise standard deviation, > 0")
  double sigma;

  @Option(
      names = "--shift-probs",
      required = true,
      split = ",",
      description = "sampling probabilities of the records holding the secret, each in [0, 1]")
  List<Double> shiftProbs;

  @Option(names = "--rounds", defaultValue = "1", description = "releases T (default 1)")
  int rounds;

  @Option(names = "--alpha", required = true, description = "Q-level alpha in [0, 1] (the prior p)")
  double alpha;

  @Option(names = "--shift-multiplier", defaultValue = "1", description = "shift multiplier c (default 1)")
  double shiftMultiplier;

  @Override
  Map<String, ?> answer() throws Exception {
    double[] probs = shiftProbs.stream().mapToDouble(Double::doubleValue).toArray();
    double b = MixtureBlowUp.blowUp(sigma, probs, shiftMultiplier, rounds, alpha);
    return Map.of("blowup", b);
  }
}
