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

/**
 * The ledger's composition through the privacy-loss-distribution accountant, kept incrementally
 * (each charge composes one more PLD). Immutable; {@link #with(Release)} returns a new account.
 *
 * <p>Gaussian, Laplace and subsampled-Gaussian releases enter as their PLDs; SecPE mixtures enter
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

  private final PrivacyLossDistribution all; // null: no PLD-able release yet
  private final List<PldAccountant.Composition> allParts; // `all`, release by release, at any options
  private final PrivacyLossDistribution common; // non-mixture PLD-able releases
  private final PrivacyLossDistribution[] perSecret; // null: no mixture yet
  private final double pureEps;
  private final Map<Double, Double> refinedEpsilon = new java.util.concurrent.ConcurrentHashMap<>();
  private final Map<Double, Double> refinedDelta = new java.util.concurrent.ConcurrentHashMap<>();

  private PldAccount(
      PrivacyLossDistribution all,
      List<PldAccountant.Composition> allParts,
      PrivacyLossDistribution common,
      PrivacyLossDistribution[] perSecret,
      double pureEps) {
    this.all = all;
    this.allParts = allParts;
    this.common = common;
    this.perSecret = perSecret;
    this.pureEps = pureEps;
  }

  static PldAccount empty() {
    return new PldAccount(null, List.of(), null, null, 0.0);
  }

  private List<PldAccountant.Composition> plus(PldAccountant.Composition part) {
    List<PldAccountant.Composition> out = new ArrayList<>(allParts);
    out.add(part);
    return List.copyOf(out);
  }

  /** The (epsilon, delta) composition at {@code options}: the incremental one at the defaults. */
  private PrivacyLossDistribution allAt(PldOptions options) {
    if (options.equals(PldOptions.defaults())) {
      return all;
    }
    PrivacyLossDistribution out = null;
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
      return new PldAccount(all, allParts, common, perSecret, Math.nextUp(pureEps + d.epsilon()));
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
      if (worstShift == 0) {
        return new PldAccount(all, allParts, common, next, pureEps);
      }
      double shift = worstShift;
      PldAccountant.Composition dominating = o -> PrivacyLossDistribution.gaussian(m.sigma(), shift, o);
      PldOptions defaults = PldOptions.defaults();
      return new PldAccount(compose(all, dominating.at(defaults)), plus(dominating), common, next, pureEps);
    }
    PldAccountant.Composition part;
    if (cost instanceof PrivacyCost.Gaussian g) {
      part = o -> PrivacyLossDistribution.gaussian(g.noiseMultiplier(), 1.0, o);
    } else if (cost instanceof PrivacyCost.Laplace l) {
      part = o -> PrivacyLossDistribution.laplace(l.scale(), l.sensitivity(), o);
    } else if (cost instanceof PrivacyCost.SubsampledGaussian s) {
      part = o -> PrivacyLossDistribution.poissonSubsampledGaussian(s.noiseMultiplier(), s.samplingRate(), o)
          .selfCompose(s.steps());
    } else {
      throw new IllegalStateException("unknown cost " + cost);
    }
    PrivacyLossDistribution pld = part.at(PldOptions.defaults());
    return new PldAccount(compose(all, pld), plus(part), compose(common, pld), perSecret, pureEps);
  }

  int secretCount() {
    return perSecret == null ? 0 : perSecret.length;
  }

  /**
   * Composed epsilon at delta, refined: PLD epsilon (upper bound, within the accountant's gap of
   * the optimistic bound where the grid allows) plus the pure-DP epsilons (basic composition).
   */
  double epsilon(double delta) {
    if (all == null) {
      return pureEps;
    }
    if (delta == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double e = refinedEpsilon.computeIfAbsent(delta, d -> PldAccountant.refine(
        this::allAt, p -> p.epsilon(d), PldAccountant.DEFAULT_RELATIVE_GAP, PldOptions.defaults()).upper());
    return Double.isFinite(e) ? Math.nextUp(e + pureEps) : e;
  }

  /**
   * Whether the composed epsilon at delta is at most {@code limit}: answered at the default
   * interval when that (upper) bound already meets it, refined otherwise.
   */
  boolean epsilonAtMost(double delta, double limit) {
    if (all != null && delta > 0) {
      double coarse = all.epsilon(delta);
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
    if (all == null) {
      return 0.0;
    }
    double e = epsilon - pureEps;
    return refinedDelta.computeIfAbsent(e, x -> PldAccountant.refine(
        this::allAt, p -> p.delta(x), PldAccountant.DEFAULT_RELATIVE_GAP, PldOptions.defaults()).upper());
  }

  /** Per-secret r at the priors (length 1 or secretCount()). */
  double[] secretR(double[] priors) {
    int m = secretCount();
    int n = m == 0 ? priors.length : m;
    double[] r = new double[n];
    Map<PrivacyLossDistribution, PrivacyLossDistribution> withCommon = new IdentityHashMap<>();
    for (int j = 0; j < n; j++) {
      double p = priors.length == 1 ? priors[0] : priors[j];
      PrivacyLossDistribution mix = m == 0 ? null : perSecret[j];
      PrivacyLossDistribution pld =
          mix == null ? common : common == null ? mix : withCommon.computeIfAbsent(mix, common::compose);
      double rj = pld == null ? p : pld.blowUp(p);
      if (pureEps > 0) {
        // Theorem 3: r adds the blow-up of the pure-DP part
        rj = Math.nextUp(rj + Gdp.blowUp(new DpBudget(pureEps, 0), p));
      }
      r[j] = rj;
    }
    return r;
  }
}
