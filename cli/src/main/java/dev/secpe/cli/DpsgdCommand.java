package dev.secpe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.pld.DpSgd;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code secpe privacy dpsgd}: the DP-SGD noise multiplier for a target (epsilon, delta), or the
 * epsilon of a given multiplier, with Poisson sampling at rate batch/N.
 */
@Command(
    name = "dpsgd",
    mixinStandardHelpOptions = true,
    description = {
      "DP-SGD with Poisson sampling (q = batch-size / dataset-size), clipped gradients and noise"
          + " multiplier sigma: with --epsilon prints the least sigma {\"sigma\": ...} (rounded up,"
          + " relative tolerance 1e-4); with --sigma prints {\"epsilon\": ...} (rounded up).",
      "Accountants: pld (default; privacy-loss distribution, connect-the-dots, both adjacency"
          + " directions) or rdp (Renyi DP of the sampled Gaussian, Balle et al. 2020 conversion;"
          + " looser, a cross-check)."
    })
final class DpsgdCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

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

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(names = "--epsilon", required = true, description = "target epsilon: prints sigma")
    Double epsilon;

    @Option(names = "--sigma", required = true, description = "noise multiplier: prints epsilon")
    Double sigma;
  }

  @Override
  public Integer call() throws Exception {
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
    Map<String, Double> out;
    if (target.epsilon != null) {
      double sigma = DpSgd.noiseMultiplier(
          datasetSize, batchSize, steps, new DpBudget(target.epsilon, delta), acc);
      out = Map.of("sigma", sigma);
    } else {
      out = Map.of("epsilon", DpSgd.epsilon(datasetSize, batchSize, steps, target.sigma, delta, acc));
    }
    spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(out));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
