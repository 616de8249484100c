package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The refined PLD accountant: its pessimistic and optimistic bounds bracket independent values
 * (closed forms computed here with Hipparchus, published tables) and agree within 1% where the
 * composition is not tail-dominated.
 */
class PldAccountantTest {

  /**
   * T Gaussian releases of multiplier sigma are exactly sqrt(T)/sigma-GDP: the lower bound never
   * exceeds the closed form, the upper never falls below it, and the upper is within 1% above it
   * (issue 14's criterion for the exact Gaussian cases).
   */
  @Property(tries = 25)
  void gaussianCompositionsAreBracketedAndTight(
      @ForAll @DoubleRange(min = 0.5, max = 20) double sigma,
      @ForAll @IntRange(min = 0, max = 5) int log10Steps,
      @ForAll @IntRange(min = 3, max = 10) int minusLog10Delta) {
    // issue 14's grid: steps up to 1e5, delta down to 1e-10 (before: infinite upper bounds there,
    // from the convolutions' rounding-error bound; a Gaussian composition is now one Gaussian)
    int steps = (int) Math.round(Math.pow(10, log10Steps));
    double delta = Math.pow(10, -minusLog10Delta);
    double exact = ClosedForms.gaussianEpsilon(Math.sqrt(steps) / sigma, delta);
    PldAccountant.Bounds b =
        PldAccountant.epsilon(o -> PrivacyLossDistribution.gaussian(sigma, 1.0, o).selfCompose(steps), delta);
    assertThat(b.lower()).isLessThanOrEqualTo(exact * (1 + 1e-9) + 1e-12);
    assertThat(b.upper()).isGreaterThanOrEqualTo(exact * (1 - 1e-9));
    if (exact >= 0.01) {
      assertThat(b.upper()).isLessThanOrEqualTo(exact * 1.01);
      assertThat(b.relativeGap()).isLessThanOrEqualTo(0.01);
    }
  }

  /**
   * The PRV accountant's published upper bounds (Gopi, Lee, Wutschitz 2021, "Numerical
   * Composition of Differential Privacy", as cited in issue 14: q = 0.001, 1,000 steps, delta =
   * 1e-6; sigma 0.8, 1.5, 3 give at most 0.478, 0.0998, 0.0476): ours are at most theirs, and our
   * two bounds are within 1%. The fixed interval 1e-3 gave 0.1024 and 0.0578 for the last two,
   * above theirs.
   */
  @Test
  void subsampledGaussianMatchesThePrvAccountant() {
    double[] sigmas = {0.8, 1.5, 3.0};
    double[] prvUpper = {0.478, 0.0998, 0.0476};
    for (int i = 0; i < sigmas.length; i++) {
      double s = sigmas[i];
      PldAccountant.Bounds b = PldAccountant.epsilon(
          o -> PrivacyLossDistribution.poissonSubsampledGaussian(s, 0.001, o).selfCompose(1000), 1e-6);
      assertThat(b.upper()).as("sigma %s", s).isLessThanOrEqualTo(prvUpper[i]);
      assertThat(b.relativeGap()).as("sigma %s", s).isLessThanOrEqualTo(0.01);
      if (s == 0.8) {
        // untilted, the pessimistic value rose with every finer interval (0.468313, 0.468696,
        // 0.469621 from 2.5e-4 to 1.6e-5: the rounding, not the interval, decided it); it hands
        // over to the tilted pass at the first rise, which meets at 6.25e-5 (7.6 s, not 39 s)
        assertThat(b.interval()).as("%s", b).isGreaterThanOrEqualTo(6.25e-5);
        assertThat(b.relativeGap()).as("%s", b).isLessThanOrEqualTo(PldAccountant.DEFAULT_RELATIVE_GAP);
      }
    }
  }

  /**
   * Refinement goes past 2^20 composed bins (to 2^22) only on a heap of at least 2 GiB (512 bytes
   * a bin: 4.2 million bins ran out of 1 GiB and fit in 2 GiB), so that a small JVM is never
   * asked for a grid it cannot hold.
   */
  @Test
  void extendedRefinementNeedsTwoGibibytesOfHeap() {
    assertThat(PldAccountant.refinedBinLimit(1L << 30)).isEqualTo(1 << 20);
    assertThat(PldAccountant.refinedBinLimit((2L << 30) - 1)).isEqualTo(1 << 20);
    assertThat(PldAccountant.refinedBinLimit(2L << 30)).isEqualTo(1 << 22);
    assertThat(PldAccountant.refinedBinLimit(Long.MAX_VALUE)).isEqualTo(1 << 22);
  }

  /** The Laplace mechanism alone: both bounds against its exact profile (closed form). */
  @Test
  void laplaceBoundsBracketItsProfile() {
    double eps0 = 0.3;
    for (double h : new double[] {1e-3, 1e-2}) {
      PldOptions o = PldOptions.withInterval(h);
      PrivacyLossDistribution upper = PrivacyLossDistribution.laplace(1.0, eps0, o);
      PrivacyLossDistribution lower =
          PrivacyLossDistribution.laplace(1.0, eps0, o.estimate(PldOptions.Estimate.OPTIMISTIC));
      for (double e = -0.6; e <= 0.31; e += 0.01) {
        // delta(eps) = 1 - e^{(eps - eps0)/2} inside [-eps0, eps0], 1 - e^eps below, 0 above
        double exact = e >= eps0 ? 0 : e <= -eps0 ? -Math.expm1(e) : -Math.expm1(0.5 * (e - eps0));
        assertThat(lower.delta(e)).as("h %s eps %s", h, e).isLessThanOrEqualTo(exact + 1e-15);
        assertThat(upper.delta(e)).as("h %s eps %s", h, e).isGreaterThanOrEqualTo(exact - 1e-15);
      }
    }
    PldAccountant.Bounds fifty = PldAccountant.epsilon(o -> {
      PrivacyLossDistribution p = PrivacyLossDistribution.laplace(10, 1, o);
      return p.selfCompose(50);
    }, 1e-6);
    assertThat(fifty.relativeGap()).isLessThanOrEqualTo(0.01);
    assertThat(fifty.upper()).isLessThan(5.0); // basic composition: 50 x 0.1
  }

  /**
   * For subsampled Gaussians over the part of issue 14's grid where the uniform grid resolves the
   * loss (q in [1e-3, 1], sigma in [1.5, 20], up to 1,000 steps, delta in [1e-10, 1e-3]), the
   * bounds are ordered and, where epsilon >= 0.01, within 1% of each other. Before tilted
   * composition this held only for q >= 1e-2 and delta >= 1e-8: a run drew q = 1.07e-3, sigma
   * 3.51, 1,000 steps, delta 1e-7, whose bounds stayed [0.03876, 0.03944] (1.7 %) at the bin limit;
   * the tilted pass, whose optimistic side no longer carries the rounding-error bounds as slack,
   * takes it to [0.039354, 0.039389]. Where sigma <= 1 and q <= 0.01 and epsilon is large after
   * 10^4 or more steps the gap can stay open (docs/math-decisions.md §10), not part of this claim.
   */
  @Property(tries = 15)
  void subsampledBoundsAreOrderedAndTight(
      @ForAll @DoubleRange(min = -3, max = 0) double log10q,
      @ForAll @DoubleRange(min = 1.5, max = 20) double sigma,
      @ForAll @IntRange(min = 0, max = 3) int log10Steps,
      @ForAll @IntRange(min = 3, max = 10) int minusLog10Delta) {
    double q = Math.min(1.0, Math.pow(10, log10q));
    int steps = (int) Math.round(Math.pow(10, log10Steps));
    double delta = Math.pow(10, -minusLog10Delta);
    PldAccountant.Bounds b = PldAccountant.epsilon(
        o -> PrivacyLossDistribution.poissonSubsampledGaussian(sigma, q, o).selfCompose(steps), delta);
    assertThat(b.lower()).isLessThanOrEqualTo(b.upper());
    if (b.upper() >= 0.01 && Double.isFinite(b.upper())) {
      assertThat(b.relativeGap()).as("q %s sigma %s steps %s delta %s: %s", q, sigma, steps, delta, b)
          .isLessThanOrEqualTo(0.01);
    }
  }

  /**
   * q = 1e-4, sigma 5: a step's losses lie within a few 1e-6 nats, so the interval must go below
   * {@link PldAccountant#MIN_INTERVAL}; the grid stays small, so refinement does (before, these
   * stopped at 3.9e-6 with their bounds 1.04 %, 1.14 % and 1.07 % apart).
   */
  @Test
  void lossesOfTheOrderOfTheIntervalAreRefinedBelowTheMinimum() {
    double[][] points = {{10_000, 1e-10}, {100_000, 1e-6}, {100_000, 1e-10}};
    for (double[] p : points) {
      int steps = (int) p[0];
      PldAccountant.Bounds b = PldAccountant.epsilon(
          o -> PrivacyLossDistribution.poissonSubsampledGaussian(5.0, 1e-4, o).selfCompose(steps), p[1]);
      assertThat(b.upper()).as("%s", b).isGreaterThanOrEqualTo(0.01);
      assertThat(b.relativeGap()).as("steps %s delta %s: %s", steps, p[1], b).isLessThanOrEqualTo(0.005);
      assertThat(b.interval()).isLessThan(PldAccountant.MIN_INTERVAL);
    }
  }

  /**
   * A grid of more than {@link PldAccountant#SMALL_GRID_BINS} / 4 bins at 3.9e-6 (one Gaussian of mu
   * 0.03: 146,000 bins) is refined below {@link PldAccountant#MIN_INTERVAL} only where the bounds
   * there are more than {@link PldAccountant#FAR_APART} times the gap asked for apart. Asked for
   * 1e-9, they are 5.6e-9 apart at 3.9e-6 and meet at 9.8e-7 (before, refinement stopped at 3.9e-6
   * whatever the gap); asked for 3e-9 they stop at 3.9e-6. Both times they bracket the closed form.
   * The gate on the tilted passes holds too: the rounding of a single discretisation moves neither
   * bound by a tenth of the gap, so no tilted grid is built.
   */
  @Test
  void boundsFarApartAreRefinedBelowTheMinimumOnALargeGrid() {
    double mu = 0.03;
    double delta = 1e-3;
    double exact = ClosedForms.gaussianEpsilon(mu, delta);
    List<PldOptions> asked = new ArrayList<>();
    PldAccountant.Composition gaussian = o -> {
      asked.add(o);
      return PrivacyLossDistribution.gaussian(1.0, mu, o);
    };
    PldAccountant.Bounds far = PldAccountant.refine(
        gaussian, p -> p.epsilon(delta), p -> p.finiteEpsilon(delta), 1e-9, PldOptions.defaults());
    assertThat(far.interval()).as("%s", far).isLessThan(PldAccountant.MIN_INTERVAL);
    assertThat(far.relativeGap()).as("%s", far).isLessThanOrEqualTo(1e-9);
    assertThat(far.lower()).isLessThanOrEqualTo(exact * (1 + 1e-12));
    assertThat(far.upper()).isGreaterThanOrEqualTo(exact * (1 - 1e-12));

    asked.clear();
    PldAccountant.Bounds near = PldAccountant.refine(
        gaussian, p -> p.epsilon(delta), p -> p.finiteEpsilon(delta), 3e-9, PldOptions.defaults());
    assertThat(near.interval()).as("%s", near).isEqualTo(PldOptions.DEFAULT_INTERVAL / 256);
    assertThat(near.relativeGap()).as("%s", near).isGreaterThan(3e-9);
    assertThat(near.lower()).isLessThanOrEqualTo(exact * (1 + 1e-12));
    assertThat(near.upper()).isGreaterThanOrEqualTo(exact * (1 - 1e-12));
    assertThat(asked).as("tilted grids built").allMatch(o -> Double.isNaN(o.tiltTarget()));
  }

  /**
   * At delta = 1e-10 the untilted bounds of q = 0.01, sigma 1, 10 steps grew apart with every finer
   * interval (1.7 %, 2.0 %, 2.2 %, 2.4 %, 2.6 % from h = 1e-3 to 3.9e-6: the FFT's rounding error,
   * not the interval, held them apart), and the untilted pass refined down to 3.9e-6 before the
   * tilted pass closed them (172 s, measured while another job ran). It now hands over to the
   * tilted pass once a finer interval no longer narrows the gap, and the tilted pass closes it at a
   * coarse interval (3 s, the upper bound 1.764229 against 1.764227). Both bounds stay on their
   * side of the RDP accountant's looser upper bound.
   */
  @Test
  void aStalledUntiltedRefinementHandsOverToTheTiltedPass() {
    PldAccountant.Bounds b = PldAccountant.epsilon(
        o -> PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 0.01, o).selfCompose(10), 1e-10);
    assertThat(b.relativeGap()).as("%s", b).isLessThanOrEqualTo(PldAccountant.DEFAULT_RELATIVE_GAP);
    assertThat(b.interval()).as("%s", b).isGreaterThanOrEqualTo(6.25e-5);
    assertThat(b.upper()).isLessThan(RdpAccountant.epsilon(0.01, 1.0, 10, 1e-10));
  }

  /**
   * q = 1e-4, sigma 1, 10^4 steps, delta 1e-10: a mixture whose float bounds stay apart at every
   * interval: tilted, the upper bound rises as the interval shrinks (0.081294, 0.081916, 0.084863
   * from h = 6.25e-5 to 3.9e-6: the convolutions' rounding, not the interval, decides it) while the
   * lower one climbs to 0.077013, 5.3 % apart. Only the double-double pass at 3.9e-6 closes them
   * (to 0.14 %, 69 s). Three earlier rules each kept that pass from running, and each fails this
   * test: the gate that decides whether the rounding matters, applied to tilted passes too, skipped
   * it (5.3 %); going below 1e-6 regardless of whether the last interval narrowed the gap, or
   * counting a narrowing whose pessimistic value rose, took the grid to 9.8e-7, too large for the
   * double-double pass (5.3 % after 495 s). Both bounds stay below the RDP accountant's looser
   * upper bound.
   */
  @Test
  void aMixtureHeldApartByRoundingIsClosedByTheDoubleDoublePass() {
    List<PldOptions> asked = new ArrayList<>();
    PldAccountant.Bounds b = PldAccountant.epsilon(o -> {
      asked.add(o);
      return PrivacyLossDistribution.poissonSubsampledGaussian(1.0, 1e-4, o).selfCompose(10_000);
    }, 1e-10);
    assertThat(asked).as("double-double grids built").anyMatch(PldOptions::extendedPrecision);
    assertThat(b.interval()).as("%s", b).isGreaterThanOrEqualTo(PldAccountant.MIN_INTERVAL);
    assertThat(b.relativeGap()).as("%s", b).isLessThanOrEqualTo(3e-3);
    assertThat(b.upper()).isLessThan(RdpAccountant.epsilon(1e-4, 1.0, 10_000, 1e-10));
  }

  @Test
  void aCompositionTooWideForTheDefaultIntervalIsCoarsenedFirst() {
    // 10^4 Gaussian steps of multiplier 0.5: mu = 200, losses spread over about 4 x 10^4 nats,
    // more bins at 1e-3 than the grid limit allows.
    PldAccountant.Bounds b = PldAccountant.epsilon(
        o -> PrivacyLossDistribution.gaussian(0.5, 1.0, o).selfCompose(10_000), 1e-3);
    double exact = ClosedForms.gaussianEpsilon(200.0, 1e-3);
    assertThat(b.interval()).isGreaterThan(PldOptions.DEFAULT_INTERVAL);
    assertThat(b.upper()).isBetween(exact, exact * 1.01);
  }
}
