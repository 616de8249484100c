package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import dev.secpe.core.secret.DictionaryDetector;
import dev.secpe.evaluation.FrechetDistance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The engine provably evolves. In {@link VectorWorld} the generator works in embedding space
 * (RANDOM draws from a public Gaussian mixture, a variation is a small step from the parent) and
 * the private data is a shifted mixture, so the Fréchet distance (FID) from each round's survivors
 * to the private set measures exactly how far evolution got. Every figure is the mean over
 * {@link #SEEDS} seeds (data, generation and noise all change with the seed).
 *
 * <p>The regime is the one SecPE's paper claims (its random-word task): sparse secrets (40 secret
 * words, each in one to three of 600 private records) and private records scarce next to the
 * candidates Aug-PE must score (600 records vote over 600 to 800 candidates a round), with K = 20
 * public clusters of about 50 public records each.
 */
class EvolutionConvergenceTest {

  static final int PRIVATE = 600;
  static final int PUBLIC = 1000;
  static final int SECRETS = 40;
  static final int SYNTHETIC = 200;
  static final int ROUNDS = 5;
  static final int SEEDS = 5;
  static final int CLUSTERS = 20;
  static final double INF = Double.POSITIVE_INFINITY;

  private static final Map<String, double[]> CACHE = new ConcurrentHashMap<>();

  /** Mean over seeds of the FID of each round's survivors to the private set. */
  static double[] meanFid(String method, double ratio, SecPE.SelectionMode mode) {
    return CACHE.computeIfAbsent(
        method + "/" + ratio + "/" + mode,
        key -> {
          double[] mean = new double[ROUNDS];
          for (long s = 0; s < SEEDS; s++) {
            List<Double> f = fidPerRound(method, ratio, s, mode);
            assertThat(f).hasSize(ROUNDS);
            for (int t = 0; t < ROUNDS; t++) {
              mean[t] += f.get(t) / SEEDS;
            }
          }
          System.out.println(
              "FID " + key + ": " + Arrays.toString(Arrays.stream(mean).mapToObj(
                  x -> String.format(Locale.ROOT, "%.4f", x)).toArray()));
          return mean;
        });
  }

  static List<Double> fidPerRound(String method, double ratio, long seed, SecPE.SelectionMode mode) {
    PrivateDataset priv = VectorWorld.privateData(PRIVATE, SECRETS, 1000 + seed);
    PublicCorpus pub = VectorWorld.publicData(PUBLIC, 2000 + seed);
    double[][] real = VectorWorld.unitRows(VectorWorld.privateTexts(PRIVATE, SECRETS, 1000 + seed));
    List<Double> fids = new ArrayList<>();
    RunListener listener =
        e -> {
          if (e instanceof RunEvent.SurvivorsSelected s) {
            fids.add(
                FrechetDistance.between(
                    VectorWorld.unitRows(s.survivors().stream().map(SyntheticText::text).toList()), real));
          }
        };
    SecretBudget budget = Double.isInfinite(ratio) ? null : SecretBudget.ofRatio(1e-4, ratio);
    if (method.equals("secpe")) {
      SecPE.Builder b = common(SecPE.builder(), priv, pub, seed, listener).clusters(CLUSTERS).selection(mode);
      if (budget == null) {
        b.nonPrivate();
      } else {
        b.budget(budget).secrets(DictionaryDetector.of(VectorWorld.secretWords(SECRETS)))
            .noise(NoiseSources.reproducibleForTests(7 + seed));
      }
      b.build().run();
    } else {
      AugPE.Builder b = common(AugPE.builder(), priv, pub, seed, listener);
      if (budget == null) {
        b.nonPrivate();
      } else {
        b.budget(budget).noise(NoiseSources.reproducibleForTests(7 + seed));
      }
      b.build().run();
    }
    return fids;
  }

  private static <B extends EvolutionBuilder<B>> B common(
      B b, PrivateDataset priv, PublicCorpus pub, long seed, RunListener listener) {
    return b.privateData(priv)
        .publicData(pub)
        .generator(new VectorWorld.Generator())
        .embedder(new VectorWorld.Embedder())
        .syntheticSize(SYNTHETIC)
        .variations(3)
        .iterations(ROUNDS)
        .seed(seed)
        .listener(listener);
  }

  private static void assertFallsEveryRound(double[] fid, String what) {
    for (int t = 1; t < fid.length; t++) {
      assertThat(fid[t])
          .as("%s: mean FID of round %d (%s) must be below round %d's", what, t, Arrays.toString(fid), t - 1)
          .isLessThan(fid[t - 1]);
    }
  }

  @Test
  void nonPrivateAugPeMovesTowardsThePrivateDataEveryRound() {
    double[] f = meanFid("augpe", INF, SecPE.SelectionMode.ALLOCATED);
    assertFallsEveryRound(f, "Aug-PE, r/p = inf");
    // Not a token improvement: the last round is within a fifth of the first round's distance.
    assertThat(f[ROUNDS - 1]).isLessThan(f[0] / 5);
  }

  @Test
  void nonPrivateSecPeMovesTowardsThePrivateDataEveryRound() {
    double[] f = meanFid("secpe", INF, SecPE.SelectionMode.ALLOCATED);
    assertFallsEveryRound(f, "SecPE, r/p = inf");
    assertThat(f[ROUNDS - 1]).isLessThan(f[0] / 2);
  }

  @Test
  void withNoiseAtRatioTenBothMethodsStillMoveTowardsThePrivateData() {
    assertFallsEveryRound(meanFid("augpe", 10, SecPE.SelectionMode.ALLOCATED), "Aug-PE, r/p = 10");
    // SecPE releases its noisy representatives once, so its distance falls until it reaches the
    // floor those representatives set, and then stays there: the last rounds differ by noise
    // (seen: 0.0658, 0.0664, 0.0672 in rounds 2-4). It must fall every round until round 2 and end well below where
    // it started.
    double[] sec = meanFid("secpe", 10, SecPE.SelectionMode.ALLOCATED);
    assertFallsEveryRound(Arrays.copyOf(sec, 3), "SecPE, r/p = 10, rounds 0-2");
    assertThat(sec[ROUNDS - 1]).as("SecPE, r/p = 10: %s", Arrays.toString(sec)).isLessThan(0.6 * sec[0]);
  }

  @Test
  void atTheSameTightBudgetSecPeEndsCloserThanAugPe() {
    // r/p = 2, the paper's tightest budget, where it reports SecPE's largest advantage.
    double sec = meanFid("secpe", 2, SecPE.SelectionMode.ALLOCATED)[ROUNDS - 1];
    double aug = meanFid("augpe", 2, SecPE.SelectionMode.ALLOCATED)[ROUNDS - 1];
    assertThat(sec).as("SecPE's final mean FID vs Aug-PE's at r/p = 2").isLessThanOrEqualTo(aug);
  }

  @Test
  void allocatingSurvivorsToRepresentativesBeatsThePrintedTopN() {
    // Ablation of SecPE's selection (both are post-processing of the same release). With K = 20
    // representatives and N_syn = 200, the printed rule lets at most 20 candidates earn a vote and
    // fills the other 180 places without regard to the private data, so it stalls.
    double[] paper = meanFid("secpe", INF, SecPE.SelectionMode.PAPER_TOP_N);
    double[] allocated = meanFid("secpe", INF, SecPE.SelectionMode.ALLOCATED);
    assertThat(allocated[ROUNDS - 1]).isLessThan(paper[ROUNDS - 1] / 2);
    assertThat(meanFid("secpe", 10, SecPE.SelectionMode.ALLOCATED)[ROUNDS - 1])
        .isLessThan(meanFid("secpe", 10, SecPE.SelectionMode.PAPER_TOP_N)[ROUNDS - 1]);
  }
}
