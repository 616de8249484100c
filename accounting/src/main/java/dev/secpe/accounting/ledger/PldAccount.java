package dev.secpe.accounting.ledger;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.pld.PldAccountant;
import dev.secpe.accounting.pld.PldOptions;
import dev.secpe.accounting.pld.PrivacyLossDistribution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ledger's composition through the privacy-loss-distribution accountant, kept incrementally
 * (each charge composes one more PLD). Immutable; {@link #with(Release)} returns a new account.
 *
 * <p>Gaussian releases enter as one Gaussian of the combined mu (exact); Laplace and
 * subsampled-Gaussian releases as their PLDs; SecPE mixtures enter
 * the per-secret (p, r) account as their exact mixture PLD and the (epsilon, delta) account as
 * the Gaussian with their largest shift over secrets (the DP language is worst case over
 * secrets); pure-DP releases without a PLD (SVT) add their epsilon (basic composition) and, for
 * (p, r), their blow-up by Theorem 3.
 *
 * <p>The (epsilon, delta) account is composed at the default interval as releases come, and
 * refined by {@link PldAccountant} when queried: rebuilt at finer intervals until its pessimistic
 * and optimistic bounds agree within {@link PldAccountant#DEFAULT_RELATIVE_GAP} (a long
 * composition of small losses needs a finer grid than the default). A query whose answer at the
 * default interval already meets a limit is answered there ({@link #epsilonAtMost}).
 */
final class PldAccount {

  // Gaussian releases (and the Gaussians that dominate SecPE mixtures) are not composed one by
  // one: T Gaussian mechanisms of multipliers sigma_i are exactly one of mu = sqrt(sum 1/sigma_i^2),
  // so they are kept as that sum and enter every composition as one Gaussian PLD. A charge then
  // costs O(1) for them instead of a convolution (1,000 Aug-PE rounds took 8.7 s to charge and
  // query, 3,000 took 36 s), and the one Gaussian is discretised once, more accurately than T.
  private final PrivacyLossDistribution allRest; // the Laplace releases; null: none
  private final List<PldAccountant.Composition> allParts; // `allRest`, release by release, at any options
  // Subsampled Gaussian releases of one (noise multiplier, sampling rate) are one mechanism
  // composed steps times: they are kept as that pair's total steps and composed as one
  // self-composition when queried, so a charge costs O(1) and a run of R rounds of DP-SGD (or of
  // subsampled votes) is one power of one step, not R compositions (the map is never mutated)
  private final Map<List<Double>, Integer> subsampled;
  private final double allGaussSq; // sum of mu^2 of the Gaussians in the (epsilon, delta) account
  private final PrivacyLossDistribution commonRest; // non-mixture PLD-able releases but Gaussians
  private final double commonGaussSq; // sum of mu^2 of the Gaussian releases
  private final PrivacyLossDistribution[] perSecret; // null: no mixture yet
  private final double pureEps;
  private final Map<Double, Double> refinedEpsilon = new ConcurrentHashMap<>();
  private final Map<Double, Double> refinedDelta = new ConcurrentHashMap<>();
  private final Map<Double, Double> refinedAt = new ConcurrentHashMap<>();
  private volatile PrivacyLossDistribution allCache; // all() at the defaults, built on first use
  private volatile PrivacyLossDistribution commonCache;

  private PldAccount(
      PrivacyLossDistribution allRest,
      List<PldAccountant.Composition> allParts,
      Map<List<Double>, Integer> subsampled,
      double allGaussSq,
      PrivacyLossDistribution commonRest,
      double commonGaussSq,
      PrivacyLossDistribution[] perSecret,
      double pureEps) {
    this.allRest = allRest;
    this.allParts = allParts;
    this.subsampled = subsampled;
    this.allGaussSq = allGaussSq;
    this.commonRest = commonRest;
    this.commonGaussSq = commonGaussSq;
    this.perSecret = perSecret;
    this.pureEps = pureEps;
  }

  static PldAccount empty() {
    return new PldAccount(null, List.of(), Map.of(), 0.0, null, 0.0, null, 0.0);
  }

  /** The Gaussian of {@code sum mu_i^2 = muSq} at {@code options}; null for none. */
  private static PrivacyLossDistribution gaussian(double muSq, PldOptions options) {
    return muSq > 0 ? PrivacyLossDistribution.gaussian(1 / Math.sqrt(muSq), 1.0, options) : null;
  }

  /**
   * Refuses (as the grid itself would) a combined Gaussian too wide for the default grid, so that
   * the ledger drops the PLD account at this release, saying so, instead of failing at a query.
   */
  private static void checkGaussianFits(Release release, double muSq) {
    if (muSq == 0) {
      return; // nothing Gaussian on the account yet (a release that shifts no secret adds mu = 0)
    }
    if (!PrivacyLossDistribution.gaussianFits(1 / Math.sqrt(muSq), 1.0, PldOptions.defaults())) {
      throw new IllegalStateException("the composed Gaussian of mu=" + Math.sqrt(muSq) + " after release "
          + release.id() + " needs more than " + PldOptions.DEFAULT_MAX_BINS
          + " bins at the default interval " + PldOptions.DEFAULT_INTERVAL);
    }
  }

  /** Whether any PLD-able release is on the account. */
  private boolean anyPld() {
    return allRest != null || allGaussSq > 0 || !subsampled.isEmpty();
  }

  /**
   * Whether the (epsilon, delta) account is one Gaussian (plus pure-DP epsilons): then the
   * fallback composition's exact mu-GDP conversion is at least as tight (its mu is the same or, for
   * SecPE mixtures, smaller: the largest shift per secret summed, not per release), and the ledger
   * answers from it at once.
   */
  boolean gaussianOnly() {
    return allRest == null && subsampled.isEmpty();
  }

  /** The subsampled Gaussian groups, each composed over its total steps, at {@code options}. */
  private PrivacyLossDistribution subsampledAt(PldOptions options) {
    PrivacyLossDistribution out = null;
    for (Map.Entry<List<Double>, Integer> g : subsampled.entrySet()) {
      out = compose(out, PrivacyLossDistribution.poissonSubsampledGaussian(
          g.getKey().get(0), g.getKey().get(1), options).selfCompose(g.getValue()));
    }
    return out;
  }

  /** The (epsilon, delta) composition at the default options (null: none). */
  private PrivacyLossDistribution all() {
    PrivacyLossDistribution a = allCache;
    if (a == null && anyPld()) {
      a = compose(compose(allRest, subsampledAt(PldOptions.defaults())),
          gaussian(allGaussSq, PldOptions.defaults()));
      allCache = a;
    }
    return a;
  }

  /** The non-mixture PLD-able releases' composition at the default options (null: none). */
  private PrivacyLossDistribution common() {
    PrivacyLossDistribution c = commonCache;
    if (c == null && (commonRest != null || commonGaussSq > 0 || !subsampled.isEmpty())) {
      c = compose(compose(commonRest, subsampledAt(PldOptions.defaults())),
          gaussian(commonGaussSq, PldOptions.defaults()));
      commonCache = c;
    }
    return c;
  }

  private List<PldAccountant.Composition> plus(PldAccountant.Composition part) {
    List<PldAccountant.Composition> out = new ArrayList<>(allParts);
    out.add(part);
    return List.copyOf(out);
  }

  /** The (epsilon, delta) composition at {@code options}: the incremental one at the defaults. */
  private PrivacyLossDistribution allAt(PldOptions options) {
    if (options.equals(PldOptions.defaults())) {
      return all();
    }
    PrivacyLossDistribution out = compose(gaussian(allGaussSq, options), subsampledAt(options));
    for (PldAccountant.Composition part : allParts) {
      out = compose(out, part.at(options));
    }
    return out;
  }

  private static PrivacyLossDistribution compose(
      PrivacyLossDistribution a, PrivacyLossDistribution b) {
    return a == null ? b : b == null ? a : a.compose(b);
  }

  PldAccount with(Release release) {
    PrivacyCost cost = release.cost();
    if (cost instanceof PrivacyCost.PureDp d) {
      return new PldAccount(allRest, allParts, subsampled, allGaussSq, commonRest, commonGaussSq,
          perSecret, Math.nextUp(pureEps + d.epsilon()));
    }
    if (cost instanceof PrivacyCost.SecretMixture m) {
      int count = m.secretCount();
      if (perSecret != null && perSecret.length != count) {
        throw new IllegalArgumentException(
            "release " + release.id() + " covers " + count + " secrets but earlier releases cover "
                + perSecret.length);
      }
      double[][] probs = m.shiftProbsPerSecret();
      PrivacyLossDistribution[] next =
          perSecret == null ? new PrivacyLossDistribution[count] : perSecret.clone();
      Map<List<Double>, PrivacyLossDistribution> built = new HashMap<>();
      Map<PrivacyLossDistribution, Map<PrivacyLossDistribution, PrivacyLossDistribution>> composed =
          new IdentityHashMap<>();
      double worstShift = 0;
      for (int j = 0; j < count; j++) {
        double shift = m.maxShift(j);
        worstShift = Math.max(worstShift, shift);
        if (shift == 0) {
          continue; // no record holding secret j can be sampled: nothing about it is released
        }
        double[] nonZero = Arrays.stream(probs[j]).filter(x -> x > 0).sorted().toArray();
        List<Double> key = Arrays.stream(nonZero).boxed().toList();
        PrivacyLossDistribution one =
            built.computeIfAbsent(
                key,
                k -> PrivacyLossDistribution.secretMixture(m.sigma(), nonZero, m.shiftMultiplier()));
        PrivacyLossDistribution before = next[j];
        if (before == null) {
          next[j] = one;
        } else {
          next[j] =
              composed
                  .computeIfAbsent(before, b -> new IdentityHashMap<>())
                  .computeIfAbsent(one, o -> before.compose(o));
        }
      }
      // the (epsilon, delta) account takes the Gaussian of the largest shift (mu = shift / sigma)
      double mu = worstShift / m.sigma();
      checkGaussianFits(release, allGaussSq + mu * mu);
      return new PldAccount(allRest, allParts, subsampled, allGaussSq + mu * mu, commonRest,
          commonGaussSq, next, pureEps);
    }
    PldAccountant.Composition part;
    if (cost instanceof PrivacyCost.Gaussian g) {
      double mu = 1 / g.noiseMultiplier();
      checkGaussianFits(release, allGaussSq + mu * mu);
      return new PldAccount(allRest, allParts, subsampled, allGaussSq + mu * mu, commonRest,
          commonGaussSq + mu * mu, perSecret, pureEps);
    } else if (cost instanceof PrivacyCost.Laplace l) {
      part = o -> PrivacyLossDistribution.laplace(l.scale(), l.sensitivity(), o);
    } else if (cost instanceof PrivacyCost.SubsampledGaussian s) {
      // one step must fit the default grid (else the ledger drops the PLD account here, saying so);
      // the composition is built when queried
      PrivacyLossDistribution.poissonSubsampledGaussian(
          s.noiseMultiplier(), s.samplingRate(), PldOptions.defaults());
      Map<List<Double>, Integer> groups = new HashMap<>(subsampled);
      groups.merge(List.of(s.noiseMultiplier(), s.samplingRate()), s.steps(), PldAccount::addSteps);
      return new PldAccount(allRest, allParts, Map.copyOf(groups), allGaussSq, commonRest,
          commonGaussSq, perSecret, pureEps);
    } else {
      throw new IllegalStateException("unknown cost " + cost);
    }
    PrivacyLossDistribution pld = part.at(PldOptions.defaults());
    return new PldAccount(compose(allRest, pld), plus(part), subsampled, allGaussSq,
        compose(commonRest, pld), commonGaussSq, perSecret, pureEps);
  }

  /** The steps of two charges of one subsampled Gaussian, refused past what one int counts. */
  private static int addSteps(int a, int b) {
    long sum = (long) a + b;
    if (sum > Integer.MAX_VALUE) {
      throw new IllegalStateException("more than " + Integer.MAX_VALUE
          + " steps of one subsampled Gaussian on the ledger");
    }
    return (int) sum;
  }

  int secretCount() {
    return perSecret == null ? 0 : perSecret.length;
  }

  /**
   * Composed epsilon at delta, refined: PLD epsilon (upper bound, within the accountant's gap of
   * the optimistic bound where the grid allows) plus the pure-DP epsilons (basic composition).
   */
  double epsilon(double delta) {
    if (!anyPld()) {
      return pureEps;
    }
    if (delta == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double e = refinedEpsilon.computeIfAbsent(delta, d -> {
      PldAccountant.Bounds b = PldAccountant.refine(
          this::allAt, p -> p.epsilon(d), p -> p.finiteEpsilon(d), PldAccountant.DEFAULT_RELATIVE_GAP,
          PldOptions.defaults());
      refinedAt.put(d, b.upperInterval());
      return b.upper();
    });
    return Double.isFinite(e) ? Math.nextUp(e + pureEps) : e;
  }

  /**
   * The pessimistic epsilon at delta of the composition at {@code options} (one composition, no
   * refinement), plus the pure-DP epsilons: an upper bound, for a calibration's search (NaN where
   * the grid cannot hold it).
   */
  double epsilonBound(double delta, PldOptions options) {
    if (!anyPld()) {
      return pureEps;
    }
    if (delta == 0) {
      return Double.POSITIVE_INFINITY;
    }
    try {
      double e = allAt(options).epsilon(delta);
      return Double.isFinite(e) ? Math.nextUp(e + pureEps) : e;
    } catch (IllegalStateException tooWide) {
      return Double.NaN;
    }
  }

  /** The interval at which {@link #epsilon}'s refinement at delta met (the default where none). */
  double refinedInterval(double delta) {
    if (!anyPld() || delta == 0) {
      return PldOptions.DEFAULT_INTERVAL;
    }
    epsilon(delta);
    Double h = refinedAt.get(delta);
    return h == null ? PldOptions.DEFAULT_INTERVAL : h;
  }

  /**
   * Whether the composed epsilon at delta is at most {@code limit}: answered at the default
   * interval when that (upper) bound already meets it, refined otherwise.
   */
  boolean epsilonAtMost(double delta, double limit) {
    if (anyPld() && delta > 0) {
      double coarse = all().epsilon(delta);
      if (Double.isFinite(coarse) && Math.nextUp(coarse + pureEps) <= limit) {
        return true;
      }
    }
    return epsilon(delta) <= limit;
  }

  /** Composed delta at epsilon, refined as {@link #epsilon}. */
  double delta(double epsilon) {
    if (epsilon < pureEps) {
      return 1.0;
    }
    if (!anyPld()) {
      return 0.0;
    }
    double e = epsilon - pureEps;
    return refinedDelta.computeIfAbsent(e, x -> PldAccountant.refine(
        this::allAt, p -> p.delta(x), p -> x, PldAccountant.DEFAULT_RELATIVE_GAP,
        PldOptions.defaults()).upper());
  }

  /** Per-secret r at the priors (length 1 or secretCount()). */
  double[] secretR(double[] priors) {
    int m = secretCount();
    int n = m == 0 ? priors.length : m;
    double[] r = new double[n];
    Map<PrivacyLossDistribution, PrivacyLossDistribution> withCommon = new IdentityHashMap<>();
    // Secrets held alike share one distribution (with() builds one per distinct mixture): its
    // blow-up at a prior is computed once, not once per secret (125,000 secrets at a million
    // records, two records each, are one distribution).
    Map<PrivacyLossDistribution, Map<Double, Double>> blownUp = new IdentityHashMap<>();
    PrivacyLossDistribution common = common();
    for (int j = 0; j < n; j++) {
      double p = priors.length == 1 ? priors[0] : priors[j];
      PrivacyLossDistribution mix = m == 0 ? null : perSecret[j];
      PrivacyLossDistribution pld =
          mix == null ? common : common == null ? mix : withCommon.computeIfAbsent(mix, common::compose);
      double rj = pld == null ? p : blownUp.computeIfAbsent(pld, x -> new HashMap<>()).computeIfAbsent(p, pld::blowUp);
      if (pureEps > 0) {
        // Theorem 3: r adds the blow-up of the pure-DP part
        rj = Math.nextUp(rj + Gdp.blowUp(new DpBudget(pureEps, 0), p));
      }
      r[j] = rj;
    }
    return r;
  }
}
