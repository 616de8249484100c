package dev.secpe.accounting.ledger;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.secret.MixtureBlowUp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The composition of a list of releases (package-private; {@link PrivacyLedger} is the API).
 *
 * <p>Current method (documented fallback until the PLD accountant is wired in): Gaussian costs
 * compose exactly in mu-GDP; subsampled Gaussians are accounted by the full Gaussian that
 * dominates them (no amplification); SecPE mixtures by the Gaussian with their largest shift;
 * pure-DP costs add their epsilons; (epsilon, delta) of the mixed composition uses basic
 * composition {@code (eps_G(delta) + sum eps_pure, delta)}. Secret bounds stay in the blow-up
 * reading of SecPE Lemma 3.2 throughout (eq. (4) for GDP, {@link Gdp#blowUp(DpBudget, double)}
 * for (eps, delta)); Lemma C.2 is not used (see its javadoc).
 */
final class Composition {

  private static final double MARGIN = 1e-11;

  final int releases;
  final boolean allGaussian;
  final boolean anyPure;
  final double commonSq;
  final double[] secretSq; // null when no SecretMixture is on the ledger
  final double pureEps;
  private final double pureEpsSum; // the sum before the outward rounding of pureEps
  private final int pureTerms; // how many pure-DP epsilons the sum holds
  final List<PrivacyCost.SecretMixture> mixtures;

  private Composition(
      int releases,
      boolean allGaussian,
      boolean anyPure,
      double commonSq,
      double[] secretSq,
      double pureEpsSum,
      int pureTerms,
      List<PrivacyCost.SecretMixture> mixtures) {
    this.mixtures = mixtures;
    this.releases = releases;
    this.allGaussian = allGaussian;
    this.anyPure = anyPure;
    this.commonSq = commonSq;
    this.secretSq = secretSq;
    this.pureEpsSum = pureEpsSum;
    this.pureTerms = pureTerms;
    this.pureEps = upSum(pureEpsSum, pureTerms);
  }

  /**
   * A sum of {@code terms} non-negative epsilons (each a quotient, within u/2 of its value), rounded
   * up by the bound on its rounding, {@code (2 terms + 1) u}: rigorous, and small enough that a
   * Laplace scale rounded up by 1e-12 ({@link dev.secpe.accounting.Calibration#laplaceScale}) is
   * reported at most at the epsilon it was solved for (the relative 1e-11 used before reported
   * 1.00000000001 for an epsilon of 1).
   */
  private static double upSum(double sum, int terms) {
    return sum == 0 ? 0 : Math.nextUp(sum * (1 + (2.0 * terms + 1) * 0x1.0p-53));
  }

  /** The composition of no release. */
  static final Composition EMPTY = new Composition(0, true, false, 0, null, 0, 0, List.of());

  static Composition of(List<Release> releases) {
    Composition c = EMPTY;
    for (Release rel : releases) {
      c = c.plus(rel);
    }
    return c;
  }

  /**
   * This composition and one more release: O(1) for Gaussian and pure-DP costs (the ledger charges
   * incrementally, so a run of T releases costs O(T), not O(T^2)).
   */
  Composition plus(Release rel) {
    PrivacyCost cost = rel.cost();
    boolean gaussianOnly = allGaussian;
    boolean pure = anyPure;
    double common = commonSq;
    double[] secrets = secretSq;
    double eps = pureEpsSum;
    int terms = pureTerms;
    List<PrivacyCost.SecretMixture> mix = mixtures;
    if (cost instanceof PrivacyCost.Gaussian g) {
      common += 1 / (g.noiseMultiplier() * g.noiseMultiplier());
    } else if (cost instanceof PrivacyCost.SubsampledGaussian sg) {
      gaussianOnly = false;
      common += sg.steps() / (sg.noiseMultiplier() * sg.noiseMultiplier());
    } else if (cost instanceof PrivacyCost.SecretMixture m) {
      gaussianOnly = false;
      for (PrivacyCost.SecretMixture earlier : mix) {
        if (earlier.secretCount() == m.secretCount() && !m.sameSecretsAs(earlier)) {
          throw new IllegalArgumentException(
              "release " + rel.id() + " covers a different secret set than earlier releases (" + m.secretSet()
                  + " vs " + earlier.secretSet() + "): secret j is not the same secret in both");
        }
      }
      List<PrivacyCost.SecretMixture> grown = new ArrayList<>(mix);
      grown.add(m);
      mix = List.copyOf(grown);
      if (secrets == null) {
        secrets = new double[m.secretCount()];
      } else if (secrets.length != m.secretCount()) {
        throw new IllegalArgumentException(
            "release "
                + rel.id()
                + " covers "
                + m.secretCount()
                + " secrets but earlier releases cover "
                + secrets.length);
      } else {
        secrets = secrets.clone();
      }
      for (int j = 0; j < secrets.length; j++) {
        double mu = m.maxShift(j) / m.sigma();
        secrets[j] += mu * mu;
      }
    } else if (cost instanceof PrivacyCost.Laplace l) {
      gaussianOnly = false;
      pure = true;
      eps += l.epsilon();
      terms++;
    } else if (cost instanceof PrivacyCost.PureDp d) {
      gaussianOnly = false;
      pure = true;
      eps += d.epsilon();
      terms++;
    } else {
      throw new IllegalStateException("unknown cost " + cost);
    }
    return new Composition(releases + 1, gaussianOnly, pure, common, secrets, eps, terms, mix);
  }

  private static double up(double x) {
    return x == 0 ? 0 : Math.nextUp(x * (1 + MARGIN));
  }

  int secretCount() {
    return secretSq == null ? 0 : secretSq.length;
  }

  GdpStatus status() {
    if (anyPure) {
      return GdpStatus.NOT_GDP;
    }
    return allGaussian ? GdpStatus.EXACT : GdpStatus.UPPER_BOUND;
  }

  /** The dominating mu of secret j (j ignored when no mixture is on the ledger). */
  GdpMu mu(int j) {
    double sq = commonSq + (secretSq == null ? 0 : secretSq[j]);
    return new GdpMu(up(Math.sqrt(sq)));
  }

  /** The dominating mu, worst over secrets. */
  GdpMu worstMu() {
    double worst = 0;
    if (secretSq != null) {
      for (double s : secretSq) {
        worst = Math.max(worst, s);
      }
    }
    return new GdpMu(up(Math.sqrt(commonSq + worst)));
  }

  String dpMethod() {
    if (!anyPure) {
      return allGaussian
          ? "exact mu-GDP composition converted with delta(eps; mu)"
          : "mu-GDP composition of dominating Gaussians converted with delta(eps; mu)";
    }
    return commonSq == 0 && secretSq == null
        ? "pure-DP epsilons summed"
        : "basic composition: eps_GDP(delta) + sum of pure-DP epsilons";
  }

  double epsilon(double delta) {
    GdpMu mu = worstMu();
    if (mu.mu() == 0) {
      return pureEps;
    }
    if (delta == 0) {
      return Double.POSITIVE_INFINITY;
    }
    // Gdp.epsilonAt is already on the safe side (the upper end of its bracket, judged by the
    // outward-rounded delta): without pure-DP releases it is the ledger's epsilon as it stands, so
    // a Gaussian ledger reports exactly the conversion of the mu it reports; a sum is rounded up
    // by its own bound
    double gaussian = Gdp.epsilonAt(mu, delta);
    return pureEps == 0 ? gaussian : Math.nextUp((gaussian + pureEps) * (1 + 0x1.0p-52));
  }

  double delta(double epsilon) {
    GdpMu mu = worstMu();
    if (epsilon < pureEps) {
      return 1.0;
    }
    if (mu.mu() == 0) {
      return 0.0;
    }
    return Gdp.deltaAt(mu, Math.max(0, epsilon - pureEps));
  }

  /** Per-secret r at the priors, with the method used. */
  record SecretResult(double[] r, String method) {}

  SecretResult secretR(double[] priors) {
    int m = secretCount();
    double[] p;
    if (m == 0 || priors.length == m) {
      p = priors;
    } else if (priors.length == 1) {
      p = new double[m];
      Arrays.fill(p, priors[0]);
    } else {
      throw new IllegalArgumentException(
          "priors must have 1 or " + m + " entries, got " + priors.length);
    }
    double[] r = new double[p.length];
    Map<Long, Double> cache = new HashMap<>();
    for (int j = 0; j < p.length; j++) {
      GdpMu mu = mu(Math.min(j, Math.max(0, m - 1)));
      long key = Double.doubleToLongBits(mu.mu()) * 31 + Double.doubleToLongBits(p[j]);
      final double pj = p[j];
      r[j] = cache.computeIfAbsent(key, k -> secretR(mu, pj));
    }
    String method;
    if (!anyPure) {
      method =
          (allGaussian ? "exact mu-GDP composition" : "mu-GDP composition of dominating Gaussians")
              + ", then eq. (4) r = B_mu(p)";
    } else {
      method =
          "min of: Theorem 3 (B_mu(p) of the GDP part + blow-up of the pure-DP part) and the"
              + " blow-up of the (eps, delta) composition over delta in 1e-1..1e-16";
    }
    // Which bound is the smallest depends, per secret, on who holds it (the mixtures' rho come
    // from the private data): the description names the bounds considered, never which one won,
    // so that it is a function of the releases' public parameters only.
    if (!mixtures.isEmpty()) {
      exactPerRelease(p, r);
      method +=
          "; and Theorem 3 over per-release exact blow-ups (SecPE mixtures: exact T = 1"
              + " Neyman-Pearson); the smallest bound per secret";
    }
    return new SecretResult(r, method);
  }

  /**
   * SecPE Theorem 3 with each part's own blow-up: the composed Gaussian part (eq. 4), each
   * mixture release exactly ({@link MixtureBlowUp}, T = 1) and the pure-DP part; parts that
   * release nothing about a secret are left out. Exact when a secret is touched by one part
   * only. Lowers {@code r} in place where it is smaller.
   */
  private void exactPerRelease(double[] p, double[] r) {
    List<double[][]> probs = new ArrayList<>();
    for (PrivacyCost.SecretMixture m : mixtures) {
      probs.add(m.shiftProbsPerSecret());
    }
    for (int j = 0; j < r.length; j++) {
      double sum = 0;
      int parts = 0;
      if (commonSq > 0) {
        sum += Gdp.secretR(new GdpMu(up(Math.sqrt(commonSq))), p[j]);
        parts++;
      }
      for (int k = 0; k < mixtures.size(); k++) {
        PrivacyCost.SecretMixture m = mixtures.get(k);
        if (m.maxShift(j) > 0) {
          sum += MixtureBlowUp.blowUp(m.sigma(), probs.get(k)[j], m.shiftMultiplier(), 1, p[j]);
          parts++;
        }
      }
      if (pureEps > 0) {
        sum += Gdp.blowUp(new DpBudget(pureEps, 0), p[j]);
        parts++;
      }
      double candidate = parts == 0 ? p[j] : parts == 1 ? sum : up(sum);
      if (candidate < r[j]) {
        r[j] = candidate;
      }
    }
  }

  /**
   * r for one secret: eq. (4) without pure-DP releases, else the smaller of Theorem 3 and the
   * blow-up of the (eps, delta) composition over a grid of deltas.
   */
  private double secretR(GdpMu mu, double p) {
    if (!anyPure) {
      return Gdp.secretR(mu, p);
    }
    double pure = Gdp.blowUp(new DpBudget(pureEps, 0), p);
    double best = mu.mu() == 0 ? pure : up(Gdp.secretR(mu, p) + pure);
    if (mu.mu() > 0) {
      for (int k = 2; k <= 32; k++) {
        double delta = Math.pow(10, -k / 2.0);
        double eps = up(Gdp.epsilonAt(mu, delta) + pureEps);
        double viaDp = Gdp.blowUp(new DpBudget(eps, delta), p);
        if (viaDp < best) {
          best = viaDp;
        }
      }
    }
    return best;
  }

}
