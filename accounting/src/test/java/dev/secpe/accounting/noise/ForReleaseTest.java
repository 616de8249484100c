package dev.secpe.accounting.noise;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ForReleaseTest {

  private static double[] draws(NoiseSource s) {
    double[] out = new double[20];
    s.gaussian(3.0, out);
    return out;
  }

  @Test
  void theReproducibleSourceGivesEachReleaseItsOwnStreamWhateverWasDrawnBefore() {
    NoiseSource a = NoiseSources.reproducibleForTests(5);
    NoiseSource b = NoiseSources.reproducibleForTests(5);
    draws(b); // b's main stream has moved on; a release stream must not care
    assertThat(draws(a.forRelease("augpe/round-3/votes"))).containsExactly(draws(b.forRelease("augpe/round-3/votes")));
    assertThat(draws(a.forRelease("augpe/round-3/votes")))
        .isNotEqualTo(draws(a.forRelease("augpe/round-2/votes")));
    assertThat(a.forRelease("x").isPrivate()).isFalse();
  }

  @Test
  void aSecureSourceIsItsOwnReleaseSource() {
    NoiseSource s = NoiseSources.secure();
    assertThat(s.forRelease("anything")).isSameAs(s);
  }
}
