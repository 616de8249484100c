package dev.secpe.examples;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.pld.DpSgd;
import dev.secpe.accounting.pld.PrivacyLossDistribution;
import dev.secpe.accounting.secret.MixtureBlowUp;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.accounting.secret.SecretNoiseResult;
import java.util.List;

/**
 * {@code bin/secpe privacy ...} from Java, call by call: each method is one subcommand's call into
 * {@code secpe-accounting}. The guide's page "Privacy math from Java" shows the regions, and
 * {@code PrivacyMathTest} keeps the page equal to them and checks each answer.
 */
public final class PrivacyMath {

  private PrivacyMath() {}

  /** {@code privacy secret-to-gdp --p 1e-4 --r 1e-3}: the largest mu giving (p, r). */
  static double secretToGdp() {
    // @start region="secret-to-gdp"
    GdpMu mu = Gdp.muFor(new SecretBudget(1e-4, 1e-3));   // SecretBudget(p, r): r is the posterior bound
    // @end region="secret-to-gdp"
    return mu.mu();
  }

  /** {@code privacy gdp-to-secret --p 1e-4 --mu 1}: r at prior p. */
  static double gdpToSecret() {
    // @start region="gdp-to-secret"
    double r = Gdp.secretR(new GdpMu(1.0), 1e-4);
    // @end region="gdp-to-secret"
    return r;
  }

  /** {@code privacy gdp-to-dp --mu 1 --delta 1e-5} (and {@code --epsilon 1}). */
  static double[] gdpToDp() {
    // @start region="gdp-to-dp"
    double epsilon = Gdp.epsilonAt(new GdpMu(1.0), 1e-5);
    double delta = Gdp.deltaAt(new GdpMu(1.0), 1.0);
    // @end region="gdp-to-dp"
    return new double[] {epsilon, delta};
  }

  /** {@code privacy gaussian --epsilon 1 --delta 1e-5 [--method classic]}. */
  static double[] gaussian() {
    // @start region="gaussian"
    DpBudget budget = new DpBudget(1.0, 1e-5);
    double sigma = Calibration.analyticGaussianSigma(budget, 1.0);       // sensitivity 1
    double classic = Calibration.classicGaussianSigma(new DpBudget(0.5, 1e-5), 1.0); // needs epsilon < 1
    // @end region="gaussian"
    return new double[] {sigma, classic};
  }

  /** {@code privacy pe-noise --epsilon 4 --delta 1e-5 --rounds 10}: Aug-PE's noise multiplier. */
  static double peNoise() {
    // @start region="pe-noise"
    double sigma = Calibration.privateEvolutionNoise(new DpBudget(4.0, 1e-5), 10).sigma();
    // @end region="pe-noise"
    return sigma;
  }

  /** Epsilon of T Gaussian releases: no subcommand of its own (pe-noise is the inverse). */
  static double[] gaussianReleases() {
    // @start region="t-releases"
    int releases = 10;
    double sigma = 5.0;                                      // noise sd of each sensitivity-1 release
    // Exact in mu-GDP: T Gaussians of sensitivity/sigma each compose to sqrt(T) * (1 / sigma).
    GdpMu mu = Gdp.compose(new GdpMu(1.0 / sigma), releases);
    double epsilonGdp = Gdp.epsilonAt(mu, 1e-5);
    // The same through the privacy-loss distribution (any mix of mechanisms composes this way).
    double epsilonPld = PrivacyLossDistribution.gaussian(sigma, 1.0).selfCompose(releases).epsilon(1e-5);
    // @end region="t-releases"
    return new double[] {mu.mu(), epsilonGdp, epsilonPld};
  }

  /** {@code privacy dpsgd --dataset-size 60000 --batch-size 256 --steps 1000 --delta 1e-5 --sigma 1.1} (and {@code --epsilon 1}). */
  static double[] dpsgd() {
    // @start region="dpsgd"
    double epsilon = DpSgd.epsilon(60_000, 256, 1_000, 1.1, 1e-5, DpSgd.Accountant.PLD);
    double sigma = DpSgd.noiseMultiplier(60_000, 256, 1_000, new DpBudget(1.0, 1e-5), DpSgd.Accountant.PLD);
    // @end region="dpsgd"
    return new double[] {epsilon, sigma};
  }

  /** {@code privacy blowup --sigma 4 --shift-probs 1,0.5 --alpha 1e-4 --rounds 3}. */
  static double blowup() {
    // @start region="blowup"
    double b = MixtureBlowUp.blowUp(4.0, new double[] {1.0, 0.5}, 1.0, 3, 1e-4);   // shift multiplier c = 1
    // @end region="blowup"
    return b;
  }

  /** {@code privacy secret-noise --records R.jsonl --p 1e-4 --r 1e-3 --rounds 3}. */
  static SecretNoiseResult secretNoise() {
    // @start region="secret-noise"
    // Records 0..3 hold secrets {0}, {0, 1}, {1}, {}: the "secrets" arrays of R.jsonl, numbered.
    List<int[]> records = List.of(new int[] {0}, new int[] {0, 1}, new int[] {1}, new int[0]);
    SecretNoiseResult noise = SecretNoise.builder()
        .records(records, 2)                                  // 2 distinct secrets
        .uniformBudget(new SecretBudget(1e-4, 1e-3))
        .rounds(3)
        .shiftMultiplier(Math.sqrt(2))                        // the CLI's default
        .solve();
    double sigma = noise.sigma();
    // @end region="secret-noise"
    return noise;
  }
}
