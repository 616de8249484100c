package dev.secpe.accounting.pld;

import dev.secpe.accounting.Preconditions;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the PLD's discretisation interval for the composition at hand: builds the composition
 * twice, as a pessimistic (upper-bound) and a lower-bound discretisation ({@linkplain
 * PldOptions.Estimate#OPTIMISTIC optimistic}, or {@linkplain PldOptions.Estimate#ROUNDED rounded}
 * where that is predicted to be tighter: long compositions with a large epsilon), and
 * divides the interval by 4 until the two agree within a relative gap, so the returned upper
 * bound is within that gap of the truth. A fixed interval cannot do this: a long composition of
 * small losses (DP-SGD or PE with a small sampling rate) needs a finer grid than one wide loss,
 * and a very wide composition needs a coarser one to fit the grid limit.
 *
 * <p>Measured against the PRV accountant's published upper bounds (Gopi et al. 2021; q = 0.001,
 * 1,000 steps, delta = 1e-6): sigma 0.8, 1.5, 3 give 0.468, 0.0898, 0.0375 here against their
 * 0.478, 0.0998, 0.0476, where the fixed interval 1e-3 gave 0.469, 0.1024 and 0.0578.
 *
 * <p>Stateless; the composition is rebuilt at each interval tried (its cost grows as the inverse
 * of the interval).
 */
public final class PldAccountant {

  /** The default relative gap between the upper and lower bound at which refinement stops. */
  public static final double DEFAULT_RELATIVE_GAP = 0.005;

  /**
   * The finest interval tried, in nats, where the composed grid is larger than {@link
   * #SMALL_GRID_BINS} and the bounds are within {@link #FAR_APART} times the gap asked for, or
   * where the last interval did not narrow them.
   */
  public static final double MIN_INTERVAL = 1e-6;

  /**
   * Below {@link #MIN_INTERVAL} refinement goes on (down to {@link #FLOOR_INTERVAL}) while the
   * finer composed grid stays within this many bins and the last interval narrowed the bounds (by a
   * tenth; where it did not, the rounding holds them apart, and a double-double pass at the coarser
   * interval closes them: q = 1e-4, sigma 1, 100 steps, delta 1e-10 went on to 9.8e-7 and stopped
   * 1.06 % apart after 246 s): such a grid is cheap, and it means the
   * losses themselves are of the order of the interval (q = 1e-4, sigma 5: a step's losses within
   * a few 1e-6 nats; 10^4 steps, delta 1e-10 stopped at 3.9e-6 with the bounds 1.04 % apart, and
   * meet within 0.06 % at 9.8e-7, in under a second).
   */
  public static final int SMALL_GRID_BINS = 1 << 18;

  /**
   * Below {@link #MIN_INTERVAL}, a composed grid larger than {@link #SMALL_GRID_BINS} is refined
   * further only while the bounds are more than this many times the gap asked for apart and the
   * last, coarser interval narrowed them (by a tenth): such a step costs about four times the whole
   * refinement so far, worth it where the interval holds the bounds far apart, not to close the
   * last fraction of the gap (q = 1e-4, sigma 1, 10^5 steps, delta 1e-3 stopped at 3.9e-6 with its
   * bounds 1.40 % apart, its grid of 3e5 bins), nor where the rounding holds them apart and the
   * finer grid would be too large for the double-double pass that follows (q = 1e-4, sigma 1,
   * 1,000 steps, delta 1e-10: 3.7 % apart at 3.9e-6 and at 9.8e-7).
   */
  public static final double FAR_APART = 2.0;

  /**
   * The untilted pass hands over to the tilted one where a finer interval's pessimistic value rises
   * above the coarser one's by more than this fraction of the gap asked for (relative): in exact
   * arithmetic it cannot rise, so the rounding and truncation decide it. In a tilted pass such a
   * rise means the interval did not narrow the bounds, whatever the lower bound did, so refinement
   * does not go below {@link #MIN_INTERVAL} from there (q = 1e-4, sigma 1, 10^4 steps, delta
   * 1e-10: tilted, 0.081294, 0.081916, 0.084863 from h = 6.25e-5 to 3.9e-6; it went on to 9.8e-7,
   * too large a grid for the double-double pass, and stopped 5.3 % apart after 495 s).
   */
  private static final double RISE = 0.01;

  /** The finest interval tried at all, in nats. */
  public static final double FLOOR_INTERVAL = 1e-9;

  /**
   * The largest composed grid refinement goes to (bins of the pessimistic PLD): past it a finer
   * interval costs more than the bound gains, and the bounds say how far apart they still are.
   */
  public static final int MAX_REFINED_BINS = 1 << 20;

  /**
   * Where the bounds are still further apart than asked at {@link #MAX_REFINED_BINS}, refinement
   * goes on up to this many composed bins (2^22, one more step of the interval) when the JVM's
   * maximum heap holds {@link #BYTES_PER_EXTENDED_BIN} per bin (2 GiB): at issue 14's hardest
   * grid points (sigma 0.5 after 10^4 steps and more) that step cuts the gap about fourfold, e.g.
   * q = 1e-3, 10^4 steps, delta 1e-3: 2.6 % to 0.29 %, 69 s to 100 s. An {@link OutOfMemoryError}
   * while building a grid past {@link #MAX_REFINED_BINS} stops refinement with the bounds found.
   */
  public static final int MAX_EXTENDED_BINS = 1 << 22;

  /**
   * Heap per composed bin that the extended refinement asks for: 4.2 million bins ran out of a
   * 1 GiB heap and fit in 2 GiB (measured), so 512 bytes, with room for the caller's own data.
   */
  public static final long BYTES_PER_EXTENDED_BIN = 512;

  private PldAccountant() {}

  /** A composition of PLDs, built at the options given (interval and estimate). */
  @FunctionalInterface
  public interface Composition {
    /**
     * The composed PLD at {@code options}.
     *
     * @throws IllegalStateException if the grid would exceed {@link PldOptions#maxBins()}
     */
    PrivacyLossDistribution at(PldOptions options);
  }

  /**
   * An upper and a lower bound on a quantity of the true composition, and the interval at which
   * they were reached. Where the composition is too wide for the grid limit at a fine enough
   * interval, or its mass sits in tails the grid resolves poorly (a tiny delta after thousands of
   * steps), the two can stay apart: {@link #relativeGap()} says by how much.
   *
   * @param upper the pessimistic value: what accounting uses
   * @param lower the optimistic value (NaN when the optimistic grid could not be built)
   * @param interval the discretisation interval at which the two met (of the lower bound)
   * @param upperInterval the interval of the upper bound: finer than {@code interval} where it was
   *     polished ({@link #refine(Composition, ToDoubleFunction, ToDoubleFunction, double, PldOptions)})
   */
  public record Bounds(double upper, double lower, double interval, double upperInterval) {

    /** Bounds whose upper bound is of the same interval as the lower one. */
    public Bounds(double upper, double lower, double interval) {
      this(upper, lower, interval, interval);
    }

    /** {@code (upper - lower) / upper}; 0 when both are 0 or infinite, NaN without a lower bound. */
    public double relativeGap() {
      if (upper == lower) {
        return 0.0;
      }
      return (upper - lower) / upper;
    }
  }

  /** Epsilon at {@code delta}, refined to {@link #DEFAULT_RELATIVE_GAP}, from the default options. */
  public static Bounds epsilon(Composition composition, double delta) {
    Preconditions.checkUnit("delta", delta);
    return refine(composition, p -> p.epsilon(delta), p -> p.finiteEpsilon(delta),
        DEFAULT_RELATIVE_GAP, PldOptions.defaults());
  }

  /** Delta at {@code epsilon}, refined to {@link #DEFAULT_RELATIVE_GAP}, from the default options. */
  public static Bounds delta(Composition composition, double epsilon) {
    if (Double.isNaN(epsilon)) {
      throw new IllegalArgumentException("epsilon must not be NaN, got epsilon=NaN");
    }
    return refine(composition, p -> p.delta(epsilon), p -> epsilon, DEFAULT_RELATIVE_GAP,
        PldOptions.defaults());
  }

  /**
   * {@link #refine(Composition, ToDoubleFunction, ToDoubleFunction, double, PldOptions)} without a
   * tilt: the compositions are convolved untilted, whatever the gap reached.
   */
  public static Bounds refine(
      Composition composition, ToDoubleFunction<PrivacyLossDistribution> quantity, double relativeGap,
      PldOptions start) {
    return refine(composition, quantity, null, relativeGap, start, null);
  }

  /**
   * Refines as {@link #refine(Composition, ToDoubleFunction, double, PldOptions)} does (but hands
   * over to the tilted passes as soon as a finer interval no longer narrows the gap by a tenth: at a
   * small delta the untilted bounds are held apart by the FFT's rounding error, which finer grids
   * only widen); where the bounds are then still further apart than {@code relativeGap} (or the
   * upper bound is infinite: the FFT's rounding-error bound, relative to the bulk of the
   * distribution, exceeds a small delta after a long composition) and the rounding may be what
   * holds them apart (setting aside the rounding-error bounds and truncated tails moves a bound by
   * more than a tenth of the gap, or the pass stalled), refines again from the interval reached
   * with every convolution exponentially tilted towards the loss {@code tiltTarget} gives for the
   * last pessimistic PLD built (see {@link PldOptions#tiltTarget()}), each finer interval tilted
   * towards the target the interval before gives; once more, from the interval reached, where the
   * target of the last PLD built moved by more than 1 % from the one it was tilted towards; where
   * they are still apart (and the rounding may still be why), once more with {@link
   * PldOptions#extendedPrecision()} (double-double arithmetic). Every bound found is a bound, so
   * the best upper and the best lower one of all passes are returned.
   *
   * @param tiltTarget the privacy loss at which the quantity is decided, from a pessimistic PLD of
   *     the composition ({@code p -> p.finiteEpsilon(delta)} for an epsilon, the epsilon itself for
   *     a delta), NaN for none; null: never tilt
   */
  public static Bounds refine(
      Composition composition, ToDoubleFunction<PrivacyLossDistribution> quantity,
      @Nullable ToDoubleFunction<PrivacyLossDistribution> tiltTarget, double relativeGap,
      PldOptions start) {
    return refine(composition, quantity, tiltTarget, relativeGap, start, null);
  }

  /**
   * {@link #refine(Composition, ToDoubleFunction, ToDoubleFunction, double, PldOptions)},
   * reporting the bounds of every interval tried to {@code progress} as they are found (for a
   * calculator that shows how far a long query has come; null: none).
   */
  public static Bounds refine(
      Composition composition, ToDoubleFunction<PrivacyLossDistribution> quantity,
      @Nullable ToDoubleFunction<PrivacyLossDistribution> tiltTarget, double relativeGap,
      PldOptions start, @Nullable Consumer<Bounds> progress) {
    Consumer<Bounds> report = progress == null ? b -> { } : progress;
    Pass pass = refineAtTilt(
        composition, quantity, null, relativeGap, start, tiltTarget != null, true, report);
    Bounds b = pass.bounds();
    for (int i = 0; i < 2 && tiltTarget != null && !within(b, relativeGap)
        && pass.roundingMatters(quantity); i++) {
      double t = tiltTarget.applyAsDouble(pass.upperPld());
      if (!Double.isFinite(t) || Math.abs(t - pass.tilt()) <= 0.01 * Math.abs(t)) {
        break;
      }
      try {
        pass = refineAtTilt(composition, quantity, tiltTarget, relativeGap,
            start.interval(b.interval()).tiltTarget(t), false, pass.narrowed(), report);
      } catch (IllegalStateException tooManyBins) {
        break;
      }
      b = best(b, pass.bounds());
    }
    if (tiltTarget != null && !within(b, relativeGap) && !start.extendedPrecision()
        && pass.roundingMatters(quantity)
        && 2L * pass.upperPld().size() <= Convolution.DOUBLE_DOUBLE_MAX_SIZE) {
      // Still apart: the double FFT's rounding bound, relative to the tilted peak, can exceed the
      // values at the loss asked about where no tilt puts that loss at the peak (a mixture: small
      // q, tiny delta). Once more from the interval reached, in double-double arithmetic; not
      // where the last convolutions would be too long for it and be in double again (a composition
      // that is wide, not a mixture: q = 0.01, 10^5 steps, sigma 0.5 filled 2^22 bins).
      double t = tiltTarget.applyAsDouble(pass.upperPld());
      if (Double.isFinite(t)) {
        try {
          pass = refineAtTilt(composition, quantity, tiltTarget, relativeGap,
              start.interval(b.interval()).tiltTarget(t).extendedPrecision(true), false,
              pass.narrowed(), report);
          b = best(b, pass.bounds());
        } catch (IllegalStateException tooManyBins) {
          // keep the bounds found
        }
      }
    }
    return polished(composition, quantity, b, pass, start, report);
  }

  /**
   * Where the bounds met further apart than {@link #POLISH_GAP} and the upper bound may still be
   * that far above the truth (its change over the pass's last interval, extrapolated as h^2, is
   * more than a fifth of that; or the pass had one interval), one more pessimistic composition at a
   * quarter of the interval, the better upper bound kept. The gap asked for certifies the upper
   * bound to within it, but a refinement that stops at its first interval leaves it up to 0.13 %
   * above dp_accounting's (CTCL's Chatbot Arena setting at epsilon 2: 1.99994 at 1e-3, against
   * 1.99738), where the lower bound alone needed no finer grid.
   */
  private static Bounds polished(
      Composition composition, ToDoubleFunction<PrivacyLossDistribution> quantity, Bounds b,
      Pass pass, PldOptions start, Consumer<Bounds> report) {
    double u = b.upper();
    if (!Double.isFinite(u) || !(u - b.lower() > POLISH_GAP * Math.abs(u))) {
      return b;
    }
    // the upper bound's remaining error, extrapolated from its change over the last interval
    double settled = pass.lastStep() > 1 && Double.isFinite(pass.previousUpper())
        ? (pass.previousUpper() - u) / ((double) pass.lastStep() * pass.lastStep() - 1)
        : Double.POSITIVE_INFINITY;
    double h = pass.bounds().interval() / 4;
    if (!(settled > 0.2 * POLISH_GAP * Math.abs(u)) || h < MIN_INTERVAL
        || 4L * pass.upperPld().size() > MAX_REFINED_BINS) {
      return b;
    }
    PldOptions o = start.estimate(PldOptions.Estimate.PESSIMISTIC).interval(h)
        .tiltTarget(pass.tilt()).extendedPrecision(false);
    double finer;
    try {
      finer = quantity.applyAsDouble(composition.at(o));
    } catch (IllegalStateException | OutOfMemoryError tooLarge) {
      return b;
    }
    if (!(finer < u)) {
      return b;
    }
    Bounds polished = new Bounds(finer, Math.min(b.lower(), finer), b.interval(), h);
    report.accept(polished);
    return polished;
  }

  /**
   * The interval at which refinement of {@code quantity} is predicted to meet {@link
   * #DEFAULT_RELATIVE_GAP} (and its upper bound to be polished), from one pessimistic and one
   * optimistic composition at {@code h} tilted towards {@code target}: h where they meet within
   * 0.1 %, h/4 where within the gap (the polish), else h/k for the least k of 2 to 64 at which the
   * optimistic gap, shrinking as h^2, would be 0.8 of the gap asked for (not below {@link
   * #MIN_INTERVAL}). For a calibration's search, which bisects on the pessimistic bound at that
   * interval before checking its answer with the refined query: a refined query at the start built
   * the finer grid's two compositions besides (the Yelp DP-SGD setting: 1e-3 gives 13 % and
   * 1.25e-4, where refinement meets the gap).
   */
  static double predictedInterval(Composition composition,
      ToDoubleFunction<PrivacyLossDistribution> quantity, double target, double h) {
    PldOptions o = PldOptions.withInterval(h).tiltTarget(target);
    double upper;
    double lower;
    try {
      upper = quantity.applyAsDouble(composition.at(o));
      lower = quantity.applyAsDouble(composition.at(o.estimate(PldOptions.Estimate.OPTIMISTIC)));
    } catch (IllegalStateException tooManyBins) {
      return h;
    }
    double gap = upper - lower;
    if (!(gap > POLISH_GAP * Math.abs(upper))) {
      return h;
    }
    if (!(gap > DEFAULT_RELATIVE_GAP * Math.abs(upper))) {
      return h / 4;
    }
    double asked = 0.8 * DEFAULT_RELATIVE_GAP * Math.abs(upper);
    for (int k = 2; k <= 64; k *= 2) {
      if (gap / ((double) k * k) <= asked) {
        return Math.max(h / k, MIN_INTERVAL);
      }
    }
    return Math.max(h / 64, MIN_INTERVAL);
  }

  /**
   * The relative gap above which {@link #refine} polishes the upper bound at a finer interval where
   * it may not have settled: 0.1 %, what issue 33 allows the upper bound above dp_accounting's.
   */
  static final double POLISH_GAP = 0.001;

  /** The best upper and the best lower bound of two passes, at the second one's interval. */
  private static Bounds best(Bounds b, Bounds next) {
    double lower = Double.isNaN(b.lower()) ? next.lower()
        : Double.isNaN(next.lower()) ? b.lower() : Math.max(b.lower(), next.lower());
    double upper = Math.min(b.upper(), next.upper());
    return new Bounds(upper, Math.min(lower, upper), next.interval());
  }

  /**
   * A refinement's bounds, the last pessimistic PLD it built, the lower-bound PLD of its last
   * interval (null where none was built), the tilt target they were built at (NaN: untilted),
   * whether it stopped because a finer interval no longer narrowed the gap, and whether its last
   * interval narrowed it by a tenth.
   */
  private record Pass(
      Bounds bounds, PrivacyLossDistribution upperPld, @Nullable PrivacyLossDistribution lowerPld,
      double tilt, boolean stalled, boolean narrowed, double previousUpper, int lastStep) {

    /**
     * Whether the convolutions' rounding may be what holds the bounds apart, so that a tilted (or
     * double-double) pass at the same interval could narrow them: the pass was tilted (a tilted
     * convolution bakes its rounding-error bounds into the values, so they cannot be set aside),
     * it stalled, a bound is not finite, or setting aside the rounding-error bounds and truncated
     * tails (the upper PLD's infinity mass, the lower PLD's slack) moves either bound by more than
     * a tenth of the gap. Where they do not, a tilted pass rebuilds the same bounds (q = 1e-4,
     * sigma 1, 2 10^4 steps, delta 1e-3: 43 s of 63 s); the interval holds them apart.
     */
    boolean roundingMatters(ToDoubleFunction<PrivacyLossDistribution> quantity) {
      double gap = bounds.upper() - bounds.lower();
      if (!Double.isNaN(tilt) || stalled || !Double.isFinite(gap) || lowerPld == null) {
        return true;
      }
      double up = quantity.applyAsDouble(upperPld);
      double low = quantity.applyAsDouble(lowerPld);
      return !(Math.abs(up - quantity.applyAsDouble(upperPld.withoutRoundingError())) <= 0.1 * gap
          && Math.abs(quantity.applyAsDouble(lowerPld.withoutRoundingError()) - low) <= 0.1 * gap);
    }
  }

  private static boolean within(Bounds b, double relativeGap) {
    return Double.isFinite(b.upper()) && !(b.upper() - b.lower() > relativeGap * b.upper());
  }

  /**
   * Any monotone quantity of a composition (epsilon at delta, delta at epsilon, blow-up at
   * alpha), refined until {@code (upper - lower) <= relativeGap * upper}, the interval reaches
   * {@link #MIN_INTERVAL} (or, where the last interval narrowed the gap by a tenth without raising
   * the pessimistic value (by more than {@link #RISE} of the gap asked for) and the finer
   * composed grid would stay within {@link #SMALL_GRID_BINS} or the bounds are more than {@link
   * #FAR_APART} times the gap apart, {@link #FLOOR_INTERVAL}), a finer composed grid would pass {@link
   * #MAX_REFINED_BINS} or exceed the bin limit. Starts at {@code start.discretisationInterval()}
   * and coarsens it (times 4) first while the grid does not fit or the composed grid passes {@link
   * #MAX_REFINED_BINS}.
   *
   * @param quantity the quantity of a PLD: monotone in the estimate (a pessimistic PLD's value is
   *     at least an optimistic one's)
   * @param retarget where {@code start} is tilted, the tilt target of each finer interval, from the
   *     pessimistic PLD of the interval before (the loss at which the quantity is decided moves as
   *     the grid is refined: q = 1e-4, sigma 1, 10^5 steps, delta 1e-3 from 0.089 at h = 2.5e-4
   *     to 0.067); null: the tilt of {@code start} throughout
   * @param stopOnStall stop as soon as a finer interval has not narrowed the gap by a tenth (or
   *     both are infinite), or its pessimistic value rose (by more than {@link #RISE} of the gap
   *     asked for): there the convolutions' rounding error, not the interval, holds the
   *     bounds apart (a small delta, untilted: finer grids only widen it), and a tilted pass follows
   * @param narrowedBefore whether the pass before narrowed the gap at its last interval: stands for
   *     this pass's own narrowing at its first interval
   * @throws IllegalStateException if no interval up to 1 nat fits the grid limit
   */
  private static Pass refineAtTilt(
      Composition composition, ToDoubleFunction<PrivacyLossDistribution> quantity,
      @Nullable ToDoubleFunction<PrivacyLossDistribution> retarget, double relativeGap,
      PldOptions start, boolean stopOnStall, boolean narrowedBefore, Consumer<Bounds> report) {
    Objects.requireNonNull(composition, "composition");
    Objects.requireNonNull(quantity, "quantity");
    Objects.requireNonNull(start, "start");
    if (!(relativeGap > 0 && relativeGap < 1)) {
      throw new IllegalArgumentException("relativeGap must be in (0, 1), got relativeGap=" + relativeGap);
    }
    PldOptions pessimistic = start.estimate(PldOptions.Estimate.PESSIMISTIC);
    double h = start.discretisationInterval();
    double upper = Double.POSITIVE_INFINITY;
    double lower = Double.NaN;
    // An interval whose composed grid fits: coarser where the composition is too wide for the
    // grid limit or too large to build twice (a wide composition has a large epsilon, which a
    // coarse grid resolves to the same relative accuracy). Every pessimistic value is an upper
    // bound and every optimistic one a lower bound, so the best of each is kept. (A tilted pass
    // that starts past MAX_REFINED_BINS is coarsened too: where the grid is that large, the
    // pessimistic side's rounding-error bounds can make the finer grid's upper bound the worse
    // one: q = 1e-4, sigma 0.5, 10^5 steps, delta 1e-3, tilted: 0.72897 at 1.6e-5, 0.72980 at
    // 3.9e-6.)
    PrivacyLossDistribution upperPld = null;
    double levelUpper = Double.NaN; // the pessimistic value at the current interval
    while (upperPld == null) {
      try {
        upperPld = composition.at(pessimistic.interval(h));
        levelUpper = quantity.applyAsDouble(upperPld);
        upper = Math.min(upper, levelUpper);
        if (upperPld.size() > MAX_REFINED_BINS && h * 4 <= 1.0) {
          upperPld = null;
          h *= 4;
        }
      } catch (IllegalStateException tooManyBins) {
        if (h * 4 > 1.0) {
          throw tooManyBins;
        }
        h *= 4;
      }
    }
    if (stopOnStall && Double.isFinite(levelUpper)
        && Math.abs(levelUpper - quantity.applyAsDouble(upperPld.withoutRoundingError()))
            > relativeGap * Math.abs(levelUpper)) {
      // The convolutions' rounding-error bound alone (untilted, it sits in the infinity mass)
      // moves the upper bound by more than the gap asked for, and a finer grid only raises it:
      // hand over to the tilted passes before building any lower bound (the Yelp DP-SGD query,
      // delta 3.56e-8 after 2,365 steps: 4.07 at h = 1e-3, 4.30 at 2.5e-4, where the tilted pass
      // gives 4.0008). The trivial lower bound 0 stands for the one not built.
      return new Pass(new Bounds(upper, 0.0, h), upperPld, null, Double.NaN, true, narrowedBefore,
          Double.NaN, 0);
    }
    int limit = refinedBinLimit(Runtime.getRuntime().maxMemory());
    double previousUpper = Double.NaN; // the pessimistic value at the interval before the last
    int lastStep = 0; // how much finer the last interval was than the one before
    boolean extended = false; // whether the current grid was built past MAX_REFINED_BINS
    double previousGap = Double.NaN; // upper - lower at the interval before; NaN at the first
    boolean narrowed = narrowedBefore; // whether the last interval narrowed the gap by a tenth
    boolean rose = false; // whether this interval's pessimistic value rose above the last one's
    @Nullable PrivacyLossDistribution lowerPld = null;
    double optimisticGap = Double.NaN; // upper less the optimistic bound, where last built
    double optimisticAt = Double.NaN;
    while (true) {
      try {
        // the optimistic bound's gap shrinks at best as h^2 (where the losses are smooth on the
        // scale of h; where they are not, as h)
        double best = optimisticGap * (h / optimisticAt) * (h / optimisticAt);
        Lower l = lowerBound(composition, quantity, pessimistic.interval(h), upperPld, upper,
            lower, relativeGap, upper - best);
        lower = Double.isNaN(lower) ? l.value() : Math.max(lower, l.value());
        lowerPld = l.pld();
        if (!Double.isNaN(l.optimistic())) {
          optimisticGap = upper - l.optimistic();
          optimisticAt = h;
        }
      } catch (IllegalStateException tooManyBins) {
        return new Pass(new Bounds(upper, lower, h), upperPld, lowerPld,
            pessimistic.tiltTarget(), false, narrowed, previousUpper, lastStep);
      } catch (OutOfMemoryError oom) { // past MAX_REFINED_BINS: keep what the last grid gave
        if (!extended) {
          throw oom;
        }
        return new Pass(new Bounds(upper, Math.min(lower, upper), h), upperPld, lowerPld,
            pessimistic.tiltTarget(), false, narrowed, previousUpper, lastStep);
      }
      Bounds b = new Bounds(upper, Math.min(lower, upper), h);
      report.accept(b);
      double gap = b.upper() - b.lower();
      // false at the pass's first interval; false where the pessimistic value rose (a tilted pass)
      boolean narrowedHere = gap < 0.9 * previousGap && !rose;
      if (stopOnStall && !Double.isNaN(previousGap) && !Double.isNaN(gap) && !narrowedHere) {
        return new Pass(b, upperPld, lowerPld, pessimistic.tiltTarget(), true, narrowed, previousUpper, lastStep);
      }
      // the interval, not the rounding, holds the bounds apart where the last one narrowed them
      // (at the pass's first interval: where the pass before narrowed them at its last one)
      narrowed = Double.isNaN(previousGap) ? narrowed : narrowedHere;
      previousGap = gap;
      double optimisticHere = optimisticAt == h ? optimisticGap : Double.NaN;
      int step = finerStep(h, gap, optimisticHere, relativeGap * b.upper(), lowerPld);
      if (!(gap > relativeGap * b.upper()) || h / step < FLOOR_INTERVAL
          || (h / step < MIN_INTERVAL && !(narrowed && ((long) step * upperPld.size() <= SMALL_GRID_BINS
              || gap > FAR_APART * relativeGap * b.upper())))
          || (long) step * upperPld.size() > limit) {
        return new Pass(b, upperPld, lowerPld, pessimistic.tiltTarget(), false, narrowed, previousUpper, lastStep);
      }
      extended = (long) step * upperPld.size() > MAX_REFINED_BINS;
      PldOptions next = pessimistic;
      if (retarget != null && Double.isFinite(pessimistic.tiltTarget())) {
        double t = retarget.applyAsDouble(upperPld);
        if (Double.isFinite(t)) {
          next = pessimistic.tiltTarget(t);
        }
      }
      PrivacyLossDistribution finer;
      try {
        finer = composition.at(next.interval(h / step));
      } catch (IllegalStateException tooManyBins) {
        return new Pass(b, upperPld, lowerPld, pessimistic.tiltTarget(), false, narrowed, previousUpper, lastStep);
      } catch (OutOfMemoryError oom) {
        if (!extended) {
          throw oom;
        }
        return new Pass(b, upperPld, lowerPld, pessimistic.tiltTarget(), false, narrowed, previousUpper, lastStep);
      }
      double finerUpper = quantity.applyAsDouble(finer);
      rose = finerUpper - levelUpper > RISE * relativeGap * Math.abs(levelUpper);
      if (stopOnStall && rose) {
        // a finer grid's pessimistic bound is never above a coarser one's but for the rounding
        // and truncation: these, not the interval, now decide the upper bound (q = 1e-3, sigma
        // 0.8, 1,000 steps, delta 1e-6: 0.468313, 0.468696, 0.469621 from h = 2.5e-4 to 1.6e-5)
        return new Pass(b, upperPld, lowerPld, pessimistic.tiltTarget(), true, narrowed, previousUpper, lastStep);
      }
      upperPld = finer;
      pessimistic = next;
      previousUpper = levelUpper;
      lastStep = step;
      levelUpper = finerUpper;
      h /= step;
      upper = Math.min(upper, finerUpper);
    }
  }

  /**
   * How much finer the next interval is: the least of 2, 4 and 8 at which the gap is predicted to
   * close (to within 0.8 of the gap asked for; the optimistic bound's gap shrinks as h^2 where the
   * losses are smooth on the scale of h, the rounded one's as h), where the interval stays at least
   * {@link #HALVING_FLOOR}; else 4, as before. The last interval of a refinement costs about as much
   * as all before it, so stopping just short of it pays: the Yelp DP-SGD query (2,365 steps, delta
   * 3.56e-8) went 1e-3, 2.5e-4 (0.68 % apart with the optimistic bound), 6.25e-5; its optimistic
   * gap at 1e-3, 13 %, predicts 0.2 % at 1.25e-4 (0.34 % there), so it goes 1e-3, 1.25e-4.
   *
   * @param gap the gap at this interval (the best lower bound's)
   * @param optimisticGap the optimistic bound's gap at this interval (NaN: not built here)
   */
  private static int finerStep(double h, double gap, double optimisticGap, double gapAsked,
      @Nullable PrivacyLossDistribution lowerPld) {
    if (lowerPld == null || !(gap > 0)) {
      return 4;
    }
    boolean rounded = lowerPld.options().estimate() == PldOptions.Estimate.ROUNDED;
    for (int step : new int[] {2, 4, 8}) {
      double predicted = rounded ? gap / step : gap / ((double) step * step);
      if (optimisticGap > 0) {
        predicted = Math.min(predicted, optimisticGap / ((double) step * step));
      }
      if (predicted <= 0.8 * gapAsked) {
        return step == 4 || h / step >= HALVING_FLOOR ? step : 4;
      }
    }
    return 4;
  }

  /**
   * The finest interval {@link #finerStep} halves (or eighths) to; below it intervals are divided
   * by 4 as before (the rules at {@link #MIN_INTERVAL} and below are tuned to that sequence).
   */
  static final double HALVING_FLOOR = 1e-5;

  /**
   * A lower bound at the interval of {@code at}, from the {@linkplain PldOptions.Estimate#OPTIMISTIC
   * optimistic} or the {@linkplain PldOptions.Estimate#ROUNDED rounded} composition, or the better
   * of both. The rounded one is predicted first from the pessimistic PLD's own masses ({@link
   * PrivacyLossDistribution#roundedEstimate()}, no convolution): where the prediction meets the
   * upper bound within the gap, or beats the best the optimistic one can reach here, the rounded
   * composition is built first (a long composition: its gap grows as h sqrt(n), the optimistic
   * one's up to n h), else the optimistic one; the other is built as well only where the first left
   * the bounds apart and it may do better (the prediction beats the optimistic bound; the best the
   * optimistic one can reach beats the rounded bound, or is not known). At q = 1e-4, sigma 0.5,
   * 10^5 steps, delta 1e-3 and h = 3.9e-6 the optimistic composition took 136 s and gave 0.7049,
   * the rounded one 89 s and 0.7223: from the interval before, the optimistic one could reach at
   * best 0.7188.
   *
   * @param optimisticBest the best the optimistic bound can reach at this interval (from its gap at
   *     the interval before, shrinking as h^2); NaN where not known
   */
  private static Lower lowerBound(
      Composition composition, ToDoubleFunction<PrivacyLossDistribution> quantity, PldOptions at,
      PrivacyLossDistribution upperPld, double upper, double lowerSoFar, double relativeGap,
      double optimisticBest) {
    double predicted = quantity.applyAsDouble(upperPld.roundedEstimate());
    boolean roundedFirst = Double.isFinite(upper)
        && (upper - predicted <= relativeGap * upper || predicted > optimisticBest);
    PldOptions.Estimate first =
        roundedFirst ? PldOptions.Estimate.ROUNDED : PldOptions.Estimate.OPTIMISTIC;
    PrivacyLossDistribution pld = composition.at(at.estimate(first));
    double l = quantity.applyAsDouble(pld);
    double optimistic = roundedFirst ? Double.NaN : l;
    double best = Double.isNaN(lowerSoFar) ? l : Math.max(lowerSoFar, l);
    if (!Double.isFinite(upper) || !(upper - best > relativeGap * upper)
        || !(roundedFirst ? !(optimisticBest <= l) : predicted > l)) {
      return new Lower(l, pld, optimistic);
    }
    PldOptions.Estimate second =
        roundedFirst ? PldOptions.Estimate.OPTIMISTIC : PldOptions.Estimate.ROUNDED;
    try {
      PrivacyLossDistribution other = composition.at(at.estimate(second));
      double o = quantity.applyAsDouble(other);
      if (roundedFirst) {
        optimistic = o;
      }
      return o > l ? new Lower(o, other, optimistic) : new Lower(l, pld, optimistic);
    } catch (IllegalStateException tooManyBins) {
      return new Lower(l, pld, optimistic);
    }
  }

  /**
   * A lower bound, the PLD that gave it, and the optimistic composition's bound (NaN where it was
   * not built).
   */
  private record Lower(double value, PrivacyLossDistribution pld, double optimistic) {}

  /**
   * The composed-bin limit of refinement for a JVM whose maximum heap is {@code maxHeapBytes}:
   * {@link #MAX_EXTENDED_BINS} where it holds {@link #BYTES_PER_EXTENDED_BIN} a bin, else {@link
   * #MAX_REFINED_BINS}.
   */
  static int refinedBinLimit(long maxHeapBytes) {
    return maxHeapBytes / BYTES_PER_EXTENDED_BIN >= MAX_EXTENDED_BINS
        ? MAX_EXTENDED_BINS : MAX_REFINED_BINS;
  }
}
