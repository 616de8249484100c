package dev.secpe.accounting.pld;

import dev.secpe.accounting.Preconditions;
import java.util.Objects;

/**
 * A discretised privacy-loss distribution (PLD) of a dominating pair (P, Q), with pessimistic
 * rounding (Koskela et al. 2020; Doroshenko et al. 2022, "Connect the dots") and FFT
 * composition. Immutable.
 *
 * <p>Every reported epsilon, delta and blow-up is an upper bound for the true mechanism up to
 * the documented discretisation and truncation error, which is always on the pessimistic side:
 *
 * <ul>
 *   <li><b>Discretisation</b> is connect-the-dots: delta of the true pair is evaluated exactly (to
 *       floating-point accuracy, closed forms or a monotone-likelihood-ratio threshold) at the
 *       grid {@code eps_i = i h} and interpolated linearly in {@code e^eps}; delta is convex in
 *       {@code e^eps}, so the interpolation is a dominating pair. Left of the grid it is the chord
 *       to {@code (e^eps = 0, delta = 1)}, right of it delta is held at its last grid value.
 *   <li><b>Composition</b> convolves the loss distributions (direct or radix-2 FFT); a bound on
 *       the FFT rounding error (Higham §24.1, safety factor 16) is added to the infinity mass,
 *       and negative rounding artefacts are set to zero.
 *   <li><b>Tail truncation</b> after each composition moves at most {@link PldOptions#tailMass()}
 *       of low-loss mass up onto the lowest loss kept and as much high-loss mass to infinity (a
 *       single mechanism's discretisation, which may be composed a million times, at most a
 *       millionth of it).
 *   <li><b>Tilted composition</b>: with a {@linkplain PldOptions#tiltTarget() tilt target},
 *       every convolution is of exponentially tilted sequences, and the FFT's rounding-error bound
 *       is applied to each value, relative to the tail at the target, instead of going to the
 *       infinity mass as one L1 bound relative to the bulk (see {@link PldAccountant}).
 * </ul>
 *
 * <p>Measured accuracy at the default interval 1e-3 (test harness {@code PldAccuracyReport}):
 * for Gaussians with mu = 0.5, 1, 2 composed T = 1, 10, 100 times, eps at delta = 1e-5 exceeds
 * the closed form by a relative 3e-8 to 6e-7, and at delta = 1e-8 by at most 4e-5; it is never
 * below it.
 *
 * <p>With {@link PldOptions.Estimate#OPTIMISTIC} options every step errs the other way (a pair
 * dominated by the true one whose delta is a convex minorant through lowered grid values, tails
 * dropped, rounding-error bounds subtracted), so epsilon, delta and blow-up are lower bounds; a
 * pessimistic and an optimistic PLD of the same composition bracket the truth, which is how {@link
 * PldAccountant} chooses the interval. {@link PldOptions.Estimate#ROUNDED} is a second lower bound,
 * for long compositions: the pessimistic side's rounding, composed optimistically, with every query
 * shifted by a Hoeffding bound on the accumulated rounding.
 *
 * <p>Adjacency: {@link #poissonSubsampledGaussian} carries both directions (remove and add) and
 * reports the worse one. Gaussian and Laplace are symmetric and carry one; {@link #secretMixture}
 * carries the one direction secret protection needs (P = with the secret). When a one-direction
 * PLD is composed with a two-direction one, it is used for both directions.
 */
public final class PrivacyLossDistribution {

  private final DiscretePld remove;
  private final DiscretePld add; // null: one direction only
  private final PldOptions options;
  /**
   * mu where this is exactly a Gaussian mechanism's PLD (of sensitivity / sigma = mu), else NaN.
   * Compositions of Gaussians are exactly the Gaussian of mu = sqrt(sum mu_i^2): they are built as
   * that one Gaussian, discretised once, instead of by convolution (whose rounding-error bound is
   * what made a long Gaussian composition's upper bound infinite at a small delta).
   */
  private final double gaussianMu;

  private PrivacyLossDistribution(DiscretePld remove, DiscretePld add, PldOptions options) {
    this(remove, add, options, Double.NaN);
  }

  private PrivacyLossDistribution(
      DiscretePld remove, DiscretePld add, PldOptions options, double gaussianMu) {
    this.remove = remove;
    this.add = add;
    this.options = options;
    this.gaussianMu = gaussianMu;
  }

  /** The Gaussian mechanism of {@code mu} (sensitivity mu, noise 1) at {@code options}. */
  private static PrivacyLossDistribution gaussianOfMu(double mu, PldOptions options) {
    return new PrivacyLossDistribution(discretise(gaussianPair(1.0, mu, options), options), null, options, mu);
  }

  /** The Gaussian mechanism's pair (sensitivity against noise sigma), its arguments checked. */
  private static GaussianMixturePair gaussianPair(double sigma, double sensitivity, PldOptions options) {
    Preconditions.checkPositive("sigma", sigma);
    Preconditions.checkNonNegative("sensitivity", sensitivity);
    Objects.requireNonNull(options, "options");
    return GaussianMixturePair.shiftedMixtureVsCentred(new double[] {1.0}, new double[] {sensitivity}, sigma, 0.0);
  }

  /** Gaussian mechanism with noise standard deviation {@code sigma} and L2 sensitivity. */
  public static PrivacyLossDistribution gaussian(double sigma, double sensitivity) {
    return gaussian(sigma, sensitivity, PldOptions.defaults());
  }

  /** Gaussian mechanism with explicit accuracy options. */
  public static PrivacyLossDistribution gaussian(
      double sigma, double sensitivity, PldOptions options) {
    GaussianMixturePair pair = gaussianPair(sigma, sensitivity, options);
    return new PrivacyLossDistribution(discretise(pair, options), null, options, sensitivity / sigma);
  }

  /**
   * Whether {@link #gaussian(double, double, PldOptions)} fits the grid limit of {@code options}
   * (it throws {@link IllegalStateException} exactly when not), answered without discretising.
   */
  public static boolean gaussianFits(double sigma, double sensitivity, PldOptions options) {
    GaussianMixturePair pair = gaussianPair(sigma, sensitivity, options);
    return DiscretePld.nodes(pair.lowLoss(), pair.highLoss(), options.discretisationInterval())
        <= options.maxBins();
  }

  /** Laplace mechanism with scale {@code b} and L1 sensitivity. */
  public static PrivacyLossDistribution laplace(double b, double sensitivity) {
    return laplace(b, sensitivity, PldOptions.defaults());
  }

  /** Laplace mechanism with explicit accuracy options. */
  public static PrivacyLossDistribution laplace(double b, double sensitivity, PldOptions options) {
    Preconditions.checkPositive("b", b);
    Preconditions.checkNonNegative("sensitivity", sensitivity);
    Objects.requireNonNull(options, "options");
    if (options.optimistic()) {
      return new PrivacyLossDistribution(
          DiscretePld.lowerDotsLaplace(sensitivity / b, options.discretisationInterval(), options.maxBins())
              .truncate(stepTail(options)),
          null, options);
    }
    return single(new LaplaceProfile(sensitivity / b), options);
  }

  /** One step of the Poisson-subsampled Gaussian mechanism (sampling rate q, noise multiplier). */
  public static PrivacyLossDistribution poissonSubsampledGaussian(
      double noiseMultiplier, double samplingRate) {
    return poissonSubsampledGaussian(noiseMultiplier, samplingRate, PldOptions.defaults());
  }

  /**
   * One step of the Poisson-subsampled Gaussian mechanism with sensitivity 1: remove direction
   * P = (1-q) N(0, s^2) + q N(1, s^2) vs Q = N(0, s^2); add direction P = N(0, s^2) vs Q = that
   * mixture. Both are kept; epsilon and delta report the worse.
   */
  public static PrivacyLossDistribution poissonSubsampledGaussian(
      double noiseMultiplier, double samplingRate, PldOptions options) {
    Preconditions.checkPositive("noiseMultiplier", noiseMultiplier);
    Preconditions.checkProbabilityPositive("samplingRate", samplingRate);
    Objects.requireNonNull(options, "options");
    double q = samplingRate;
    if (q == 1.0) {
      return gaussian(noiseMultiplier, 1.0, options);
    }
    double[] w = {1 - q, q};
    double[] shifts = {0.0, 1.0};
    Parallel.Pair<DiscretePld, DiscretePld> both = Parallel.both(
        () -> discretise(
            GaussianMixturePair.shiftedMixtureVsCentred(w, shifts, noiseMultiplier, 0.0), options),
        () -> discretise(
            GaussianMixturePair.centredVsReflectedMixture(w, shifts, noiseMultiplier), options));
    return new PrivacyLossDistribution(both.first(), both.second(), options);
  }

  /**
   * The SecPE dominating pair: P = N(S, sigma^2) against Q = N(0, sigma^2) with
   * S = shiftScale * PoissonBinomial(shiftProbs).
   */
  public static PrivacyLossDistribution secretMixture(
      double sigma, double[] shiftProbs, double shiftScale) {
    return secretMixture(sigma, shiftProbs, shiftScale, PldOptions.defaults());
  }

  /**
   * The SecPE dominating pair with explicit accuracy options. The Poisson-binomial tails cut for
   * speed (at most 1e-9 in all) are placed at infinite loss, which is pessimistic.
   */
  public static PrivacyLossDistribution secretMixture(
      double sigma, double[] shiftProbs, double shiftScale, PldOptions options) {
    Preconditions.checkPositive("sigma", sigma);
    Objects.requireNonNull(shiftProbs, "shiftProbs");
    Preconditions.checkNonNegative("shiftScale", shiftScale);
    Objects.requireNonNull(options, "options");
    PoissonBinomial pb = PoissonBinomial.of(shiftProbs);
    int k = pb.size();
    double[] w = pb.pmf();
    double[] shifts = new double[k];
    for (int i = 0; i < k; i++) {
      shifts[i] = shiftScale * (pb.lowest() + i);
    }
    return single(
        GaussianMixturePair.shiftedMixtureVsCentred(w, shifts, sigma, pb.truncatedMass()),
        options);
  }

  /**
   * The tail mass cut from one mechanism's discretisation: {@code tailMass * 1e-6}. A mechanism's
   * PLD may be composed a million times, and what its truncation moved to infinity (or dropped)
   * composes additively, T times; a composition's own truncation happens only about 2 log2(T) times.
   * At 1e-15 a step, 1e5 steps put 1e-10 at infinity, as much as the smallest delta asked for.
   */
  private static double stepTail(PldOptions options) {
    return options.tailMass() * 1e-6;
  }

  private static PrivacyLossDistribution single(GaussianMixturePair pair, PldOptions options) {
    return new PrivacyLossDistribution(discretise(pair, options), null, options);
  }

  private static PrivacyLossDistribution single(PrivacyProfile profile, PldOptions options) {
    return new PrivacyLossDistribution(discretise(profile, options), null, options);
  }

  private static DiscretePld discretise(GaussianMixturePair pair, PldOptions options) {
    double h = options.discretisationInterval();
    DiscretePld d = switch (options.estimate()) {
      case PESSIMISTIC -> DiscretePld.connectTheDots(pair, h, options.maxBins());
      case OPTIMISTIC -> DiscretePld.lowerDots(pair, h, options.maxBins());
      case ROUNDED -> DiscretePld.roundedDots(pair, h, options.maxBins());
    };
    return d.truncate(stepTail(options));
  }

  private static DiscretePld discretise(PrivacyProfile profile, PldOptions options) {
    return DiscretePld.connectTheDots(
            profile, options.discretisationInterval(), options.maxBins())
        .truncate(stepTail(options));
  }

  /** The composition of this and {@code other} (both must use the same discretisation). */
  public PrivacyLossDistribution compose(PrivacyLossDistribution other) {
    Objects.requireNonNull(other, "other");
    if (Double.compare(options.discretisationInterval(), other.options.discretisationInterval())
        != 0) {
      throw new IllegalArgumentException(
          "discretisation intervals differ, got "
              + options.discretisationInterval() + " and "
              + other.options.discretisationInterval());
    }
    if (options.estimate() != other.options.estimate()) {
      throw new IllegalArgumentException(
          "estimates differ, got " + options.estimate() + " and " + other.options.estimate());
    }
    if (!Double.isNaN(gaussianMu) && !Double.isNaN(other.gaussianMu) && options.equals(other.options)) {
      return gaussianOfMu(Math.hypot(gaussianMu, other.gaussianMu), options);
    }
    double tail = Math.max(options.tailMass(), other.options.tailMass());
    boolean extended = options.extendedPrecision() || other.options.extendedPrecision();
    DiscretePld mine = add != null ? add : remove;
    DiscretePld theirs = other.add != null ? other.add : other.remove;
    Parallel.Pair<DiscretePld, DiscretePld> both = Parallel.both(
        () -> remove.compose(other.remove, tail, tilt(remove, 1, other.remove), extended),
        add == null && other.add == null ? null
            : () -> mine.compose(theirs, tail, tilt(mine, 1, theirs), extended));
    return new PrivacyLossDistribution(both.first(), both.second(), options);
  }

  /**
   * The tilt of a composition of {@code x} ({@code times} times) and {@code y} (if not null)
   * towards {@link PldOptions#tiltTarget()}: 0 without a target.
   */
  private double tilt(DiscretePld x, int times, DiscretePld y) {
    if (!options.tilted()) {
      return 0.0;
    }
    return y == null
        ? DiscretePld.tiltFor(options.tiltTarget(), new DiscretePld[] {x}, new int[] {times})
        : DiscretePld.tiltFor(options.tiltTarget(), new DiscretePld[] {x, y}, new int[] {times, 1});
  }

  /**
   * The T-fold self-composition (of a Gaussian: the Gaussian of mu sqrt(T), exactly). With a
   * {@linkplain PldOptions#tiltTarget() tilt target}, every convolution of the repeated squaring
   * uses the one tilt at which the T-fold composition's tilted mean is the target.
   */
  public PrivacyLossDistribution selfCompose(int times) {
    Preconditions.checkPositive("times", times);
    if (!Double.isNaN(gaussianMu)) {
      return gaussianOfMu(gaussianMu * Math.sqrt(times), options);
    }
    double tail = options.tailMass();
    boolean extended = options.extendedPrecision();
    Parallel.Pair<DiscretePld, DiscretePld> both = Parallel.both(
        () -> remove.selfCompose(times, tail, tilt(remove, times, null), extended),
        add == null ? null : () -> add.selfCompose(times, tail, tilt(add, times, null), extended));
    return new PrivacyLossDistribution(both.first(), both.second(), options);
  }

  /**
   * The least epsilon >= 0 with delta(epsilon) &lt;= delta, rounded up (optimistic: down); +infinity
   * if none.
   */
  public double epsilon(double delta) {
    Preconditions.checkUnit("delta", delta);
    double e = remove.epsilon(delta);
    if (add != null) {
      e = Math.max(e, add.epsilon(delta));
    }
    if (e == Double.POSITIVE_INFINITY) {
      return e;
    }
    // a few ulps toward the safe side: the segment solve is accurate to rounding only
    double ulps = 1e-12 * Math.max(1.0, Math.abs(e));
    return Math.max(0.0, options.optimistic() ? e - ulps : e + ulps);
  }

  /**
   * Where the finite losses alone reach {@code delta} (the worse direction): this PLD's epsilon
   * with its infinity mass and slack set aside. Not a bound; an estimate of the loss at which
   * epsilon(delta) is decided, which stays finite where the pessimistic epsilon is infinite
   * because rounding-error bounds went to infinity. {@link PldAccountant} tilts towards it.
   */
  public double finiteEpsilon(double delta) {
    Preconditions.checkUnit("delta", delta);
    double e = remove.finiteEpsilon(delta);
    if (add != null) {
      e = Math.max(e, add.finiteEpsilon(delta));
    }
    return e;
  }

  /** The hockey-stick divergence delta(epsilon), rounded up (optimistic: down). */
  public double delta(double epsilon) {
    if (Double.isNaN(epsilon)) {
      throw new IllegalArgumentException("epsilon must not be NaN, got epsilon=NaN");
    }
    double d = remove.delta(epsilon);
    if (add != null) {
      d = Math.max(d, add.delta(epsilon));
    }
    return Math.min(1.0, d * (options.optimistic() ? 1 - 1e-12 : 1 + 1e-12));
  }

  /**
   * The blow-up function B(alpha) = sup{P(E) : Q(E) &lt;= alpha}, rounded up (optimistic: a lower
   * bound, rounded down). Computed as
   * {@code inf_eps (alpha e^eps + delta(eps))} over the discretised pessimistic PLD, which is the
   * exact blow-up of that discrete pair and, since its delta dominates the true delta for every
   * real eps, an upper bound for the true blow-up. For a two-direction PLD the worse direction.
   */
  public double blowUp(double alpha) {
    Preconditions.checkUnit("alpha", alpha);
    double b = remove.blowUp(alpha);
    if (add != null) {
      b = Math.max(b, add.blowUp(alpha));
    }
    return options.optimistic() ? Math.max(alpha, b * (1 - 1e-12)) : Math.min(1.0, b * (1 + 1e-12));
  }

  /** The trade-off function T(alpha) = 1 - B(alpha), rounded down. */
  public double tradeOff(double alpha) {
    return 1.0 - blowUp(alpha);
  }

  /**
   * This pessimistic PLD's masses read as the {@linkplain PldOptions.Estimate#ROUNDED rounded}
   * estimate of the same composition (no infinity mass, no rounding-error bounds): not a bound, a
   * prediction, without a convolution, of the rounded lower bound, so that {@link PldAccountant}
   * builds the rounded composition only where it can help.
   */
  PrivacyLossDistribution roundedEstimate() {
    return new PrivacyLossDistribution(
        remove.asRounded(), add == null ? null : add.asRounded(),
        options.estimate(PldOptions.Estimate.ROUNDED));
  }

  /**
   * This PLD without its infinity mass (pessimistic) or its slack (lower bounds): not a bound; what
   * its quantities would be if the convolutions' rounding-error bounds and truncated tails were
   * nothing, so that {@link PldAccountant} tilts, or computes in double-double, only where they
   * hold the bounds apart.
   */
  PrivacyLossDistribution withoutRoundingError() {
    return new PrivacyLossDistribution(
        remove.withoutRoundingError(), add == null ? null : add.withoutRoundingError(), options);
  }

  /** P-mass at infinite privacy loss (the worse direction): delta at every epsilon is at least it. */
  public double infinityMass() {
    return add == null ? remove.infinityMass : Math.max(remove.infinityMass, add.infinityMass);
  }

  /** The accuracy options this PLD was built with. */
  public PldOptions options() {
    return options;
  }

  /** Number of grid bins held (both directions), a measure of cost. */
  public int size() {
    return remove.pmf.length + (add == null ? 0 : add.pmf.length);
  }

  @Override
  public String toString() {
    return "PrivacyLossDistribution{bins=" + size() + ", interval="
        + options.discretisationInterval() + ", infinityMass=" + infinityMass()
        + (add == null ? "" : ", directions=2") + "}";
  }
}
