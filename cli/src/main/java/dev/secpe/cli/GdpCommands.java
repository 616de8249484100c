package dev.secpe.cli;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The Gaussian-DP conversions and calibrations of {@code secpe privacy}. Every value is the
 * library's conservative one (see {@link Gdp} and {@link Calibration} for tolerances).
 */
final class GdpCommands {

  private GdpCommands() {}

  /** {@code secret-to-gdp --p P --r R -> {"mu": ...}} (SecPE eq. 4, inverted, rounded down). */
  @Command(
      name = "secret-to-gdp",
      mixinStandardHelpOptions = true,
      description = "The largest mu such that mu-GDP gives (p, r)-secret protection (eq. 4).")
  static final class SecretToGdp implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--p", required = true, description = "prior success probability, in (0, 1)")
    double p;

    @Option(names = "--r", required = true, description = "posterior bound, in (p, 1)")
    double r;

    @Override
    public Integer call() {
      return JsonOut.print(spec, Map.of("mu", Gdp.muFor(new SecretBudget(p, r)).mu()));
    }
  }

  /** {@code gdp-to-secret --p P --mu MU -> {"r": ...}} (SecPE eq. 4, rounded up). */
  @Command(
      name = "gdp-to-secret",
      mixinStandardHelpOptions = true,
      description = "The posterior bound r = 1 - Phi(PhiInv(1 - p) - mu) of mu-GDP at prior p.")
  static final class GdpToSecret implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--p", required = true, description = "prior success probability, in (0, 1)")
    double p;

    @Option(names = "--mu", required = true, description = "GDP parameter, >= 0")
    double mu;

    @Override
    public Integer call() {
      return JsonOut.print(spec, Map.of("r", Gdp.secretR(new GdpMu(mu), p)));
    }
  }

  /** {@code gdp-to-dp --mu MU (--delta D | --epsilon E)}. */
  @Command(
      name = "gdp-to-dp",
      mixinStandardHelpOptions = true,
      description = "epsilon at delta (or delta at epsilon) implied by mu-GDP.")
  static final class GdpToDp implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--mu", required = true, description = "GDP parameter, >= 0")
    double mu;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
      @Option(names = "--delta", required = true, description = "delta in (0, 1): prints epsilon")
      Double delta;

      @Option(names = "--epsilon", required = true, description = "epsilon >= 0: prints delta")
      Double epsilon;
    }

    @Override
    public Integer call() {
      GdpMu m = new GdpMu(mu);
      if (target.delta != null) {
        return JsonOut.print(spec, Map.of("epsilon", Gdp.epsilonAt(m, target.delta)));
      }
      return JsonOut.print(spec, Map.of("delta", Gdp.deltaAt(m, target.epsilon)));
    }
  }

  /** Gaussian calibration methods. */
  enum Method {
    analytic,
    classic
  }

  /** {@code gaussian --epsilon E --delta D [--sensitivity S] [--method analytic|classic]}. */
  @Command(
      name = "gaussian",
      mixinStandardHelpOptions = true,
      description = "Noise sigma of the Gaussian mechanism for (epsilon, delta).")
  static final class Gaussian implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--epsilon", required = true, description = "epsilon > 0")
    double epsilon;

    @Option(names = "--delta", required = true, description = "delta in (0, 1)")
    double delta;

    @Option(names = "--sensitivity", defaultValue = "1", description = "L2 sensitivity (default 1)")
    double sensitivity;

    @Option(
        names = "--method",
        defaultValue = "analytic",
        description = "analytic (Balle & Wang 2018, default) or classic (needs epsilon < 1)")
    Method method;

    @Override
    public Integer call() {
      DpBudget budget = new DpBudget(epsilon, delta);
      double sigma =
          method == Method.classic
              ? Calibration.classicGaussianSigma(budget, sensitivity)
              : Calibration.analyticGaussianSigma(budget, sensitivity);
      return JsonOut.print(spec, Map.of("sigma", sigma));
    }
  }

  /** {@code pe-noise --epsilon E --delta D --rounds T -> {"sigma": ...}} (Aug-PE). */
  @Command(
      name = "pe-noise",
      mixinStandardHelpOptions = true,
      description = "Aug-PE noise multiplier: T sensitivity-1 Gaussian votes composed as mu-GDP.")
  static final class PeNoise implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--epsilon", required = true, description = "epsilon > 0")
    double epsilon;

    @Option(names = "--delta", required = true, description = "delta in (0, 1)")
    double delta;

    @Option(names = "--rounds", required = true, description = "number of releases T >= 1")
    int rounds;

    @Override
    public Integer call() {
      return JsonOut.print(
          spec,
          Map.of(
              "sigma",
              Calibration.privateEvolutionNoise(new DpBudget(epsilon, delta), rounds).sigma()));
    }
  }
}
