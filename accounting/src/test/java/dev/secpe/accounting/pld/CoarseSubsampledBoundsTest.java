package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The optimistic discretisation of a Poisson-subsampled Gaussian with a small sampling rate at an
 * interval coarser than the rate (q = 1e-4, sigma 0.5, h = 1e-3): the mechanism's bulk of losses
 * then straddles a grid node. It stays a lower bound of the true delta everywhere and is not
 * empty: before, its construction lowered that node to 0, every node above followed, and the
 * bound was 0 at every epsilon (so the refined accountant could never certify such cases).
 *
 * <p>Reference: the closed form of the remove direction, P = (1-q) N(0, s^2) + q N(1, s^2)
 * against Q = N(0, s^2): the likelihood ratio 1 - q + q e^{(x - 1/2)/s^2} rises with x, so
 * delta(eps) = P(X > x*) - e^eps Q(X > x*) with x* = s^2 log((e^eps - 1 + q)/q) + 1/2 where e^eps
 * exceeds 1 - q (Hipparchus' erfc, not the library's normal).
 */
class CoarseSubsampledBoundsTest {

  private static final double Q = 1e-4;
  private static final double S = 0.5;

  @Test
  void theOptimisticStepBoundsTheTrueDeltaFromBelowAndIsNotEmpty() {
    GaussianMixturePair rem = GaussianMixturePair.shiftedMixtureVsCentred(
        new double[] {1 - Q, Q}, new double[] {0, 1}, S, 0.0);
    for (double h : new double[] {1e-3, 2.5e-4}) {
      DiscretePld lower = DiscretePld.lowerDots(rem, h, 4_000_000);
      DiscretePld upper = DiscretePld.connectTheDots(rem, h, 4_000_000);
      for (double eps = -0.01; eps < 6; eps += 0.0123) {
        double exact = ClosedForms.subsampledRemoveDelta(Q, S, eps);
        assertThat(lower.delta(eps)).as("h=%s eps=%s", h, eps).isLessThanOrEqualTo(exact * (1 + 1e-12) + 1e-18);
        assertThat(upper.delta(eps)).as("h=%s eps=%s", h, eps).isGreaterThanOrEqualTo(exact * (1 - 1e-12));
      }
      // before: 0 (slack 3.5e-4 subtracted from every delta)
      assertThat(lower.slack).isLessThan(1e-9);
      assertThat(lower.delta(0.5)).as("h=%s", h).isGreaterThan(0.9 * ClosedForms.subsampledRemoveDelta(Q, S, 0.5));
    }
  }

  @Test
  void aHundredStepsAreBracketed() {
    // q = 1e-4, sigma 0.5, 100 steps, delta 1e-6 (a point of issue 14's grid): the bounds were
    // [0, 0.5406] before. The truth lies in [0.5385, 0.5406] (lower bound at h = 6.25e-5, 25 s),
    // so no lower bound may pass 0.5406; at the grid limit the untilted refinement stops at (h =
    // 1e-3) the lower bound is 0.448, and the tilted pass that follows reaches 0.5390.
    PldAccountant.Bounds b = PldAccountant.epsilon(
        o -> PrivacyLossDistribution.poissonSubsampledGaussian(S, Q, o).selfCompose(100), 1e-6);
    assertThat(b.lower()).isGreaterThan(0.44).isLessThanOrEqualTo(0.5406);
    assertThat(b.upper()).isGreaterThanOrEqualTo(0.5385).isLessThan(0.5415);
  }
}
