package dev.secpe.cli;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.pld.DpSgd;
import dev.secpe.accounting.pld.PldAccountant;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code secpe privacy dpsgd}: the DP-SGD noise multiplier for a target (epsilon, delta), or the
 * epsilon of a given multiplier, with Poisson sampling at rate batch/N.
 */
@Command(
    name = "dpsgd",
    description = {
      "DP-SGD with Poisson sampling (q = batch-size / dataset-size), clipped gradients and noise"
          + " multiplier sigma: with --epsilon prints the least sigma {\"sigma\": ...} (rounded up,"
          + " relative tolerance 1e-4); with --sigma prints {\"epsilon\": ...} (rounded up).",
      "Accountants: pld (default; privacy-loss distribution, connect-the-dots, both adjacency"
          + " directions) or rdp (Renyi DP of the sampled Gaussian, Balle et al. 2020 conversion;"
          + " looser, a cross-check).",
      "With pld, stderr first shows an estimate (the RDP accountant's value, an upper bound) and"
          + " then each refinement step; with --sigma the JSON also holds epsilon_lower, the"
          + " certified lower bound the refinement reached (the true epsilon lies between the two)."
    })
final class DpsgdCommand extends PrivacyOptions.JsonAnswer {

  @Option(names = "--dataset-size", required = true, description = "N, number of training records")
  long datasetSize;

  @Option(names = "--batch-size", required = true, description = "expected batch size (<= N)")
  int batchSize;

  @Option(names = "--steps", required = true, description = "number of steps")
  int steps;

  @Option(names = "--delta", required = true, description = "delta in (0, 1)")
  double delta;

  @Option(
      names = "--accountant",
      defaultValue = "pld",
      description = "pld (default) or rdp")
  String accountant;

  @Option(names = "--quiet", description = "no estimate or progress on stderr")
  boolean quiet;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(names = "--epsilon", required = true, description = "target epsilon: prints sigma")
    Double epsilon;

    @Option(names = "--sigma", required = true, description = "noise multiplier: prints epsilon")
    Double sigma;
  }

  @Override
  Map<String, ?> answer() throws Exception {
    DpSgd.Accountant acc;
    switch (accountant) {
      case "pld":
        acc = DpSgd.Accountant.PLD;
        break;
      case "rdp":
        acc = DpSgd.Accountant.RDP;
        break;
      default:
        throw new IllegalArgumentException(
            "accountant must be pld or rdp, got accountant=" + accountant);
    }
    PrintWriter err = spec.commandLine().getErr();
    Consumer<String> say = quiet || acc == DpSgd.Accountant.RDP ? null : line -> {
      err.println("dpsgd: " + line);
      err.flush();
    };
    Map<String, Double> out;
    if (target.epsilon != null) {
      double sigma = DpSgd.noiseMultiplier(
          datasetSize, batchSize, steps, new DpBudget(target.epsilon, delta), acc, say);
      out = Map.of("sigma", sigma);
    } else if (acc == DpSgd.Accountant.RDP) {
      out = Map.of("epsilon", DpSgd.epsilon(datasetSize, batchSize, steps, target.sigma, delta, acc));
    } else {
      if (say != null) {
        double rdp = DpSgd.epsilon(datasetSize, batchSize, steps, target.sigma, delta,
            DpSgd.Accountant.RDP);
        say.accept(String.format(Locale.ROOT, "estimate: epsilon <= %.6g (the RDP"
            + " accountant's, looser); refining the PLD accountant's to a certified %.2g %% interval",
            rdp, 100 * PldAccountant.DEFAULT_RELATIVE_GAP));
      }
      PldAccountant.Bounds b = DpSgd.epsilonBounds(datasetSize, batchSize, steps, target.sigma, delta,
          say == null ? null : step -> say.accept(String.format(Locale.ROOT,
              "interval %.3g: epsilon in [%.6g, %.6g]", step.interval(), step.lower(), step.upper())));
      out = new LinkedHashMap<>();
      out.put("epsilon", b.upper());
      if (Double.isFinite(b.lower())) {
        out.put("epsilon_lower", b.lower());
      }
    }
    return out;
  }
}
