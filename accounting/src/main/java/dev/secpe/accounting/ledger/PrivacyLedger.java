package dev.secpe.accounting.ledger;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.Preconditions;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.SecretBudgets;
import dev.secpe.accounting.pld.PldOptions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * Records every release a run makes and composes them. A release that would exceed the
 * configured limit is refused by {@link #charge(Release)} before any noise is drawn: callers
 * charge first, then sample.
 *
 * <p>The composed guarantee is reported in three languages by {@link #guarantee(double,
 * double[])}: (p, r) per secret, mu-GDP (exact when every release is Gaussian, an upper bound
 * when every release is dominated by a Gaussian, otherwise absent) and (epsilon, delta).
 *
 * <h2>How releases compose</h2>
 *
 * Gaussian releases compose exactly in mu-GDP ({@code mu^2 = sum 1/z^2}). A Poisson-subsampled
 * Gaussian is accounted as the unsubsampled Gaussian that dominates it (no amplification: valid
 * but loose), a SecPE mixture release per secret as the Gaussian with its largest shift {@code c
 * * #{i : rho_i > 0}} (valid but loose). Pure-DP releases (Laplace, SVT) add their epsilons; the
 * (epsilon, delta) of a mixed ledger is the basic composition {@code (eps_mu(delta) + sum
 * eps_pure, delta)}. The (p, r) bound per secret is eq. (4) of SecPE on the composed mu; with
 * pure-DP releases present it is the smaller of Theorem 3 (the Gaussian part's r plus the blow-up
 * of the pure part) and the blow-up {@code min(e^eps p + delta, ...)} of the (epsilon, delta)
 * composition, minimised over a grid of deltas. A further (p, r) candidate is Theorem 3 over each
 * part's own exact blow-up (the composed Gaussian part by eq. (4), each SecPE mixture release by
 * the exact one-release Neyman–Pearson formula of {@link
 * dev.secpe.accounting.secret.MixtureBlowUp}, the pure part by its (epsilon, 0) blow-up), which
 * is exact for a secret touched by one release. (SecPE's Lemma C.2 is not used: it can undercut
 * the tight eq. (4); see {@link dev.secpe.accounting.Gdp#lemmaC2}.)
 *
 * <p>By default ({@link Accountant#PLD}) the ledger also composes the releases' privacy-loss
 * distributions incrementally: Gaussian, Laplace and subsampled Gaussian PLDs for
 * (epsilon, delta), and per secret the exact SecPE mixture PLD for (p, r) (blow-up at p); each
 * language then reports the smaller of the two valid bounds. SVT-style {@code PureDp} costs have
 * no PLD and still add their epsilon. In the (epsilon, delta) language a SecPE mixture enters as
 * the Gaussian with its largest shift over all secrets.
 *
 * <p>Adjacency: the DP languages are with respect to the adjacency the releases' sensitivities
 * were computed for; (p, r) assumes, as SecPE Lemma 3.2 does, that removing a secret is one such
 * neighbouring step (a secret held by k records needs a k-fold sensitivity unless a SecPE mixture
 * release accounts for it).
 *
 * <p>Checkpoints: {@link #releases()} is an immutable snapshot; {@link #restore(List)} feeds it
 * back into a fresh ledger, and {@link #chargeIfAbsent(Release)} lets a resumed run reuse a
 * release instead of charging it twice.
 *
 * <p>Thread-safe.
 */
public final class PrivacyLedger {

  private final DpBudget dpLimit;
  private final GdpMu gdpLimit;
  private final SecretBudgets secretLimit;
  private final SecretBudget uniformSecretLimit;
  private final boolean admitsNone;
  private final Map<String, Release> byId = new LinkedHashMap<>();
  /** The fallback composition of every release on the ledger, kept incrementally. */
  private Composition composition = Composition.EMPTY;
  private PldAccount pld = PldAccount.empty(); // null when the PLD accountant is off
  private String pldDropped; // why the PLD accountant was dropped, or null
  private PrivacyPlan plan; // the plan this ledger follows, or null for any release

  /** Which accountants compose the ledger. */
  public enum Accountant {
    /**
     * mu-GDP composition with dominating Gaussians and basic composition for pure DP (plus exact
     * per-release blow-ups for (p, r)): instant, exact for Gaussian-only ledgers, loose for
     * subsampled Gaussians, SecPE mixtures and mixed ledgers.
     */
    GDP,
    /**
     * The default: additionally the privacy-loss-distribution accountant ({@link
     * dev.secpe.accounting.pld.PrivacyLossDistribution}), composed incrementally; each language
     * reports the smaller of the two valid bounds. Costs an FFT composition per charge. If the
     * PLD cannot represent a release (too many bins), the ledger drops it, keeps the GDP bounds,
     * and says so in every method string.
     */
    PLD
  }

  private PrivacyLedger(
      DpBudget dpLimit, GdpMu gdpLimit, SecretBudgets secretLimit, SecretBudget uniformSecretLimit) {
    this(dpLimit, gdpLimit, secretLimit, uniformSecretLimit, false);
  }

  private PrivacyLedger(
      DpBudget dpLimit,
      GdpMu gdpLimit,
      SecretBudgets secretLimit,
      SecretBudget uniformSecretLimit,
      boolean admitsNone) {
    this.admitsNone = admitsNone;
    this.dpLimit = dpLimit;
    this.gdpLimit = gdpLimit;
    this.secretLimit = secretLimit;
    this.uniformSecretLimit = uniformSecretLimit;
  }

  /** A ledger without a limit (it still records and composes). */
  public static PrivacyLedger unlimited() {
    return new PrivacyLedger(null, null, null, null);
  }

  /**
   * A ledger that refuses every release ({@link BudgetExceededException}): for runs that promise
   * to release nothing under a budget, such as non-private baselines, so that a code path that
   * would draw privacy noise in such a run fails instead of silently spending nothing.
   */
  public static PrivacyLedger admittingNone() {
    return new PrivacyLedger(null, null, null, null, true);
  }

  /** This (empty) ledger, admitting only the releases of {@code plan} ({@link PrivacyPlan#newLedger()}). */
  synchronized PrivacyLedger following(PrivacyPlan plan) {
    if (!byId.isEmpty()) {
      throw new IllegalStateException("a ledger follows a plan from its first release");
    }
    this.plan = Objects.requireNonNull(plan, "plan");
    return this;
  }

  /** The plan this ledger follows, if any. */
  public synchronized Optional<PrivacyPlan> plan() {
    return Optional.ofNullable(plan);
  }

  /** A ledger that refuses a release once the composition exceeds (epsilon, delta). */
  public static PrivacyLedger withLimit(DpBudget limit) {
    return new PrivacyLedger(Objects.requireNonNull(limit, "limit"), null, null, null);
  }

  /**
   * A ledger that refuses a release once the composition exceeds mu-GDP; pure-DP releases are
   * refused (their composition is not claimed to be GDP).
   */
  public static PrivacyLedger withLimit(GdpMu limit) {
    return new PrivacyLedger(null, Objects.requireNonNull(limit, "limit"), null, null);
  }

  /** A ledger that refuses a release once any secret's composed r exceeds its budget. */
  public static PrivacyLedger withLimit(SecretBudgets limit) {
    return new PrivacyLedger(null, null, Objects.requireNonNull(limit, "limit"), null);
  }

  /**
   * A ledger that refuses a release once any secret's composed r at {@code limit.p()} exceeds
   * {@code limit.r()}, however many secrets the releases cover: for runs that learn their secrets
   * from the private data only after the ledger exists (SecPE).
   */
  public static PrivacyLedger withUniformLimit(SecretBudget limit) {
    return new PrivacyLedger(null, null, null, Objects.requireNonNull(limit, "limit"));
  }

  /** A ledger with one (p, r) budget for every one of {@code secretCount} secrets. */
  public static PrivacyLedger withLimit(SecretBudget limit, int secretCount) {
    return withLimit(SecretBudgets.uniform(limit, secretCount));
  }

  /**
   * Records the release if the composition including it stays within the limit; otherwise
   * throws {@link BudgetExceededException} and records nothing. A release whose id is already on
   * the ledger is rejected with {@link IllegalStateException}.
   *
   * @return the release
   */
  public synchronized Release charge(Release release) {
    Objects.requireNonNull(release, "release");
    if (byId.containsKey(release.id())) {
      throw new IllegalStateException(
          "release id " + release.id() + " is already on the ledger; a release is charged once");
    }
    if (admitsNone) {
      throw new BudgetExceededException(
          "release " + release.id() + " refused before any noise was drawn: this ledger admits no"
              + " release (a non-private run charges nothing)");
    }
    if (plan != null) {
      plan.admit(release);
    }
    Composition c = composition.plus(release);
    PldAccount nextPld = null;
    String dropped = pldDropped;
    if (pld != null) {
      try {
        nextPld = pld.with(release);
      } catch (IllegalStateException e) {
        dropped = "PLD accountant dropped at release " + release.id() + ": " + e.getMessage();
      }
    }
    checkLimit(release, new Bounds(c, nextPld));
    byId.put(release.id(), release);
    composition = c;
    pld = nextPld;
    pldDropped = dropped;
    return release;
  }

  /**
   * For resumed runs: returns the release already on the ledger under this id if it is equal to
   * {@code release} (nothing is charged), charges it if the id is new, and throws {@link
   * IllegalStateException} if the id is taken by a different release.
   */
  public synchronized Release chargeIfAbsent(Release release) {
    Objects.requireNonNull(release, "release");
    Release existing = byId.get(release.id());
    if (existing == null) {
      return charge(release);
    }
    if (!existing.equals(release)) {
      throw new IllegalStateException(
          "release id " + release.id() + " is on the ledger with different parameters");
    }
    return existing;
  }

  /**
   * Charges every release of a checkpoint snapshot, in order, into this (empty) ledger; the
   * limit applies as for {@link #charge}.
   *
   * @return this ledger
   * @throws IllegalStateException if the ledger already holds releases
   */
  public synchronized PrivacyLedger restore(List<Release> snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    if (!byId.isEmpty()) {
      throw new IllegalStateException(
          "restore needs an empty ledger, this one holds " + byId.size() + " releases");
    }
    for (Release r : snapshot) {
      charge(r);
    }
    return this;
  }

  /**
   * Chooses the accountant (default {@link Accountant#PLD}); only while the ledger is empty.
   *
   * @return this ledger
   * @throws IllegalStateException if releases were already charged
   */
  public synchronized PrivacyLedger accountant(Accountant accountant) {
    Objects.requireNonNull(accountant, "accountant");
    if (!byId.isEmpty()) {
      throw new IllegalStateException(
          "choose the accountant before charging, this ledger holds " + byId.size() + " releases");
    }
    pld = accountant == Accountant.PLD ? PldAccount.empty() : null;
    pldDropped = null;
    return this;
  }

  /** The accountant in use. */
  public synchronized Accountant accountant() {
    return pld == null && pldDropped == null ? Accountant.GDP : Accountant.PLD;
  }

  /** Whether a release with this id has been charged. */
  public synchronized boolean contains(String releaseId) {
    return byId.containsKey(releaseId);
  }

  /** The releases in the order they were charged (an immutable snapshot). */
  public synchronized List<Release> releases() {
    return List.copyOf(byId.values());
  }

  /** The composed mu-GDP bound; empty when a pure-DP release is on the ledger. */
  public synchronized Optional<GdpMu> gdp() {
    Composition c = composition;
    return c.status() == GdpStatus.NOT_GDP ? Optional.empty() : Optional.of(c.worstMu());
  }

  /** Whether {@link #gdp()} is exact, an upper bound, or absent. */
  public synchronized GdpStatus gdpStatus() {
    return composition.status();
  }

  /** The composed epsilon at delta (an upper bound; infinite if delta = 0 with Gaussian noise). */
  public synchronized double epsilon(double delta) {
    checkDelta(delta);
    return new Bounds(composition, pld).epsilon(delta);
  }

  /**
   * An upper bound on the composed epsilon at delta from one PLD composition at {@code options}
   * (and the fallback composition): what a calibration's search evaluates before the ledger's own
   * refined check ({@link PlanCalibrator}).
   */
  synchronized double epsilonBound(double delta, PldOptions options) {
    checkDelta(delta);
    return new Bounds(composition, pld).epsilonBound(delta, options);
  }

  /** The interval at which the PLD refinement of {@link #epsilon} met (the default where none). */
  synchronized double refinedInterval(double delta) {
    checkDelta(delta);
    if (pld == null || pld.gaussianOnly()) {
      return PldOptions.DEFAULT_INTERVAL;
    }
    try {
      return pld.refinedInterval(delta);
    } catch (IllegalStateException tooWide) {
      return PldOptions.DEFAULT_INTERVAL;
    }
  }

  /** The composed delta at epsilon (an upper bound). */
  public synchronized double delta(double epsilon) {
    Preconditions.checkNonNegative("epsilon", epsilon);
    return new Bounds(composition, pld).delta(epsilon);
  }

  /** The guarantee at delta, with one prior p for every secret. */
  public PrivacyGuarantee guarantee(double delta, double p) {
    return guarantee(delta, new double[] {p});
  }

  /**
   * The guarantee in all three languages.
   *
   * @param delta the delta at which epsilon is reported, in [0, 1)
   * @param priors p per secret, or a single p for all
   */
  public synchronized PrivacyGuarantee guarantee(double delta, double[] priors) {
    checkDelta(delta);
    Objects.requireNonNull(priors, "priors");
    if (priors.length == 0) {
      throw new IllegalArgumentException("priors must not be empty");
    }
    for (int j = 0; j < priors.length; j++) {
      Preconditions.checkOpenUnit("p[" + j + "]", priors[j]);
    }
    Composition c = composition;
    Bounds bounds = new Bounds(c, pld);
    Composition.SecretResult s = bounds.secretR(priors);
    double[] p = priors.length == s.r().length ? priors : expand(priors[0], s.r().length);
    return new PrivacyGuarantee(
        c.releases,
        c.status(),
        c.status() == GdpStatus.NOT_GDP ? Optional.empty() : Optional.of(c.worstMu()),
        bounds.epsilon(delta),
        delta,
        c.dpMethod()
            + (pld == null ? "" : "; and the PLD accountant, the smaller bound reported")
            + (pldDropped == null ? "" : "; " + pldDropped),
        p,
        s.r(),
        s.method() + (pldDropped == null ? "" : "; " + pldDropped));
  }

  /** The fallback composition and, when on, the PLD account: each bound is the smaller. */
  private record Bounds(Composition c, PldAccount pld) {
    /**
     * Whether the PLD account can improve on the fallback in (epsilon, delta): not where it is one
     * Gaussian, which the fallback converts exactly (so a ledger of Gaussian releases, Aug-PE's,
     * answers in microseconds, where each query refined a PLD).
     */
    private boolean pldHelps() {
      return pld != null && !pld.gaussianOnly();
    }

    double epsilon(double delta) {
      double e = c.epsilon(delta);
      return !pldHelps() ? e : smaller(e, orNoBound(() -> pld.epsilon(delta)));
    }

    /** Whether epsilon at delta is at most the limit, refining the PLD only when that decides. */
    boolean epsilonAtMost(double delta, double limit) {
      return c.epsilon(delta) <= limit
          || (pldHelps() && orNoBound(() -> pld.epsilonAtMost(delta, limit) ? 0.0 : 1.0) == 0.0);
    }

    double delta(double epsilon) {
      double d = c.delta(epsilon);
      return !pldHelps() ? d : smaller(d, orNoBound(() -> pld.delta(epsilon)));
    }

    /** An upper bound on epsilon at delta from one PLD composition at {@code options}. */
    double epsilonBound(double delta, PldOptions options) {
      double e = c.epsilon(delta);
      return !pldHelps() ? e : smaller(e, pld.epsilonBound(delta, options));
    }

    /**
     * A PLD query, or NaN (no bound) where its composition cannot be built on the grid (a
     * composition too wide to convolve): the fallback bound then stands alone, as when the PLD
     * account is dropped at a charge.
     */
    private static double orNoBound(DoubleSupplier query) {
      try {
        return query.getAsDouble();
      } catch (IllegalStateException tooWide) {
        return Double.NaN;
      }
    }

    /**
     * The smaller of two upper bounds, where NaN is no bound: {@code Math.min} would let a NaN
     * from one accountant replace the other's valid bound in the report.
     */
    private static double smaller(double bound, double other) {
      return Double.isNaN(other) ? bound : Double.isNaN(bound) ? other : Math.min(bound, other);
    }

    Composition.SecretResult secretR(double[] priors) {
      Composition.SecretResult s = c.secretR(priors);
      if (pld == null) {
        return s;
      }
      double[] viaPld;
      try {
        viaPld = pld.secretR(priors.length == s.r().length ? priors : new double[] {priors[0]});
      } catch (IllegalStateException tooWide) { // as in orNoBound: the fallback stands alone
        return s;
      }
      double[] r = s.r().clone();
      for (int j = 0; j < r.length; j++) {
        r[j] = smaller(r[j], viaPld.length == r.length ? viaPld[j] : viaPld[0]);
      }
      // Never says which accountant won: per secret that depends on the private data.
      return new Composition.SecretResult(r, s.method() + "; and the PLD accountant (blow-up at p), the smaller");
    }
  }

  private static double[] expand(double p, int n) {
    double[] out = new double[n];
    Arrays.fill(out, p);
    return out;
  }

  private static void checkDelta(double delta) {
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), got delta=" + delta);
    }
  }

  private void checkLimit(Release release, Bounds c) {
    String refused = "release " + release.id() + " refused before any noise was drawn: ";
    if (dpLimit != null && !c.epsilonAtMost(dpLimit.delta(), dpLimit.epsilon())) {
      throw new BudgetExceededException(
          refused
              + "composed epsilon="
              + c.epsilon(dpLimit.delta())
              + " at delta="
              + dpLimit.delta()
              + " exceeds the limit epsilon="
              + dpLimit.epsilon());
    }
    if (gdpLimit != null) {
      if (c.c().status() == GdpStatus.NOT_GDP) {
        throw new BudgetExceededException(
            refused
                + "it is pure-DP ("
                + release.mechanism()
                + "), so the composition is not mu-GDP and the limit mu="
                + gdpLimit.mu()
                + " cannot be certified");
      }
      double mu = c.c().worstMu().mu();
      if (!(mu <= gdpLimit.mu())) {
        throw new BudgetExceededException(
            refused + "composed mu=" + mu + " exceeds the limit mu=" + gdpLimit.mu());
      }
    }
    if (uniformSecretLimit != null) {
      double[] r = c.secretR(new double[] {uniformSecretLimit.p()}).r();
      for (int j = 0; j < r.length; j++) {
        if (!(r[j] <= uniformSecretLimit.r())) {
          throw new BudgetExceededException(
              refused + "secret " + j + " would reach r=" + r[j] + " at p=" + uniformSecretLimit.p()
                  + ", above the limit r=" + uniformSecretLimit.r());
        }
      }
    }
    if (secretLimit != null) {
      int m = c.c().secretCount();
      if (m != 0 && m != secretLimit.size()) {
        throw new IllegalStateException(
            "release "
                + release.id()
                + " covers "
                + m
                + " secrets but the ledger's limit has "
                + secretLimit.size());
      }
      double[] r = c.secretR(secretLimit.p()).r();
      for (int j = 0; j < r.length; j++) {
        SecretBudget b = secretLimit.get(j);
        if (!(r[j] <= b.r())) {
          throw new BudgetExceededException(
              refused
                  + "secret "
                  + j
                  + " would reach r="
                  + r[j]
                  + " at p="
                  + b.p()
                  + ", above its limit r="
                  + b.r());
        }
      }
    }
  }
}
