package dev.secpe.cli;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.cli.PrivacyOptions.EpsilonDelta;
import dev.secpe.cli.PrivacyOptions.JsonAnswer;
import dev.secpe.cli.PrivacyOptions.Mu;
import dev.secpe.cli.PrivacyOptions.Posterior;
import dev.secpe.cli.PrivacyOptions.Prior;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Gaussian-DP conversions and calibrations of {@code secpe privacy}. Every value is the
 * library's conservative one (see {@link Gdp} and {@link Calibration} for tolerances). Their
 * shared options and the JSON answer are {@link PrivacyOptions}'.
 */
final class GdpCommands {

  private GdpCommands() {}

  /** {@code secret-to-gdp --p P --r R -> {"mu": ...}} (SecPE eq. 4, inverted, rounded down). */
  @Command(
      name = "secret-to-gdp",
      description = "The largest mu such that mu-GDP gives (p, r)-secret protection (eq. 4).")
  static final class SecretToGdp extends JsonAnswer {
    @Mixin Prior prior;
    @Mixin Posterior posterior;

    @Override
    Map<String, ?> answer() {
      return Map.of("mu", Gdp.muFor(new SecretBudget(prior.p, posterior.r)).mu());
    }
  }

  /** {@code gdp-to-secret --p P --mu MU -> {"r": ...}} (SecPE eq. 4, rounded up). */
  @Command(
      name = "gdp-to-secret",
      description = "The posterior bound r = 1 - Phi(PhiInv(1 - p) - mu) of mu-GDP at prior p.")
  static final class GdpToSecret extends JsonAnswer {
    @Mixin Prior prior;
    @Mixin Mu mu;

    @Override
    Map<String, ?> answer() {
      return Map.of("r", Gdp.secretR(new GdpMu(mu.mu), prior.p));
    }
  }

  /** {@code gdp-to-dp --mu MU (--delta D | --epsilon E)}. */
  @Command(
      name = "gdp-to-dp",
      description = "epsilon at delta (or delta at epsilon) implied by mu-GDP.")
  static final class GdpToDp extends JsonAnswer {
    @Mixin Mu mu;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
      @Option(names = "--delta", required = true, description = "delta in (0, 1): prints epsilon")
      Double delta;

      @Option(names = "--epsilon", required = true, description = "epsilon >= 0: prints delta")
      Double epsilon;
    }

    @Override
    Map<String, ?> answer() {
      GdpMu m = new GdpMu(mu.mu);
      if (target.delta != null) {
        return Map.of("epsilon", Gdp.epsilonAt(m, target.delta));
      }
      return Map.of("delta", Gdp.deltaAt(m, target.epsilon));
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
      description = "Noise sigma of the Gaussian mechanism for (epsilon, delta).")
  static final class Gaussian extends JsonAnswer {
    @Mixin EpsilonDelta budget;

    @Option(names = "--sensitivity", defaultValue = "1", description = "L2 sensitivity (default 1)")
    double sensitivity;

    @Option(
        names = "--method",
        defaultValue = "analytic",
        description = "analytic (Balle & Wang 2018, default) or classic (needs epsilon < 1)")
    Method method;

    @Override
    Map<String, ?> answer() {
      DpBudget dp = new DpBudget(budget.epsilon, budget.delta);
      double sigma =
          method == Method.classic
              ? Calibration.classicGaussianSigma(dp, sensitivity)
              : Calibration.analyticGaussianSigma(dp, sensitivity);
      return Map.of("sigma", sigma);
    }
  }

  /** {@code pe-noise --epsilon E --delta D --rounds T -> {"sigma": ...}} (Aug-PE). */
  @Command(
      name = "pe-noise",
      description = "Aug-PE noise multiplier: T sensitivity-1 Gaussian votes composed as mu-GDP.")
  static final class PeNoise extends JsonAnswer {
    @Mixin EpsilonDelta budget;

    @Option(names = "--rounds", required = true, description = "number of releases T >= 1")
    int rounds;

    @Override
    Map<String, ?> answer() {
      DpBudget dp = new DpBudget(budget.epsilon, budget.delta);
      return Map.of("sigma", Calibration.privateEvolutionNoise(dp, rounds).sigma());
    }
  }
}
