package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.FineTunableGenerator.DpNoise;
import dev.secpe.llm.FineTunableGenerator.DpSgdSettings;
import dev.secpe.llm.FineTunableGenerator.Example;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DpFineTuningTest {

  private static final NgramTextGenerator PUBLIC =
      NgramTextGenerator.builder().order(3).threads(1).train(TestCorpus.texts(40, 7)).build();

  /** Seeded test randomness, counting draws. */
  static final class Counting implements DpNoise {
    final Random rnd;
    final AtomicLong gaussians = new AtomicLong();
    final AtomicLong bernoullis = new AtomicLong();

    Counting(long seed) {
      rnd = new Random(seed);
    }

    @Override
    public double gaussian(double sigma) {
      gaussians.incrementAndGet();
      return sigma * rnd.nextGaussian();
    }

    @Override
    public boolean bernoulli(double p) {
      bernoullis.incrementAndGet();
      return rnd.nextDouble() < p;
    }
  }

  private static double l2(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (a[i] - b[i]) * (a[i] - b[i]);
    }
    return Math.sqrt(s);
  }

  /** Documents for neighbouring datasets: corpus texts, and adversarial long ones. */
  private static String adversarial(int kind, Random rnd) {
    List<String> pub = TestCorpus.texts(40, 7);
    return switch (kind) {
      // one public sentence repeated: every n-gram many times (unclipped norm grows linearly)
      case 0 -> String.join(" ", java.util.Collections.nCopies(200 + rnd.nextInt(300), pub.get(rnd.nextInt(pub.size()))));
      // many different public sentences concatenated
      case 1 -> {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 300; i++) {
          b.append(pub.get(rnd.nextInt(pub.size()))).append(' ');
        }
        yield b.toString();
      }
      // private-only words: nothing in the public support except padding n-grams
      case 2 -> "zyzzyva quokka " .repeat(100 + rnd.nextInt(100));
      default -> pub.get(rnd.nextInt(pub.size()));
    };
  }

  @Property(tries = 60)
  void neighbouringDatasetsDifferByAtMostTheClipNorm(
      @ForAll @DoubleRange(min = 0.05, max = 20) double clip,
      @ForAll @IntRange(min = 0, max = 3) int kind,
      @ForAll @IntRange(min = 1, max = 5) int times,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    NgramTextGenerator.Trained t = PUBLIC.trained();
    DpFineTuning.Support support = DpFineTuning.Support.of(t.globalCounts);
    List<DpFineTuning.Contribution> base = new ArrayList<>();
    List<String> docs = TestCorpus.texts(10, seed);
    for (String d : docs) {
      base.add(DpFineTuning.clipped(d, t.vocabulary, t.globalCounts.order, support, clip));
    }
    int[] ones = new int[base.size()];
    Arrays.fill(ones, 1);
    double[] without = DpFineTuning.clippedSum(base, ones, support.size());
    String extra = adversarial(kind, rnd);
    List<DpFineTuning.Contribution> with = new ArrayList<>(base);
    DpFineTuning.Contribution c = DpFineTuning.clipped(extra, t.vocabulary, t.globalCounts.order, support, clip);
    with.add(c);
    int[] onesPlus = Arrays.copyOf(ones, ones.length + 1);
    onesPlus[ones.length] = 1;
    double[] withSum = DpFineTuning.clippedSum(with, onesPlus, support.size());
    // one step: the sum moves by at most C
    assertThat(l2(without, withSum)).isLessThanOrEqualTo(clip * (1 + 1e-12));
    assertThat(c.norm()).isLessThanOrEqualTo(clip * (1 + 1e-12));
    // the clip binds for the long adversarial documents (so the bound is tight, not vacuous)
    if (kind == 0 || kind == 1) {
      assertThat(c.norm()).isCloseTo(clip, org.assertj.core.data.Offset.offset(1e-9 * clip));
    }
    // over K steps a document sampled `times` times moves the accumulated sum by times * C at most
    onesPlus[ones.length] = times;
    double[] withK = DpFineTuning.clippedSum(with, onesPlus, support.size());
    assertThat(l2(without, withK)).isLessThanOrEqualTo(times * clip * (1 + 1e-12));
  }

  @Test
  void privateOnlyNgramsAreNeverRevealedAndPublicOnlyOnesGetNothingWithoutNoise() {
    List<Example> tech = new ArrayList<>();
    for (String d : TestCorpus.texts(30, 99)) {
      if (TestCorpus.TECH_WORDS.stream().anyMatch(d::contains)) {
        tech.add(new Example(List.of("server"), d + " zyzzyva quokka"));
      }
    }
    NgramTextGenerator tuned =
        PUBLIC.fineTune(tech, new DpSgdSettings(1.0, 0.0, 20, tech.size() / 2, 5.0), new Counting(1));
    NgramCounts before = PUBLIC.trained().globalCounts;
    NgramCounts after = tuned.trained().globalCounts;
    assertThat(after.counts.sortedKeys()).containsExactly(before.counts.sortedKeys());
    assertThat(tuned.vocabularySize()).isEqualTo(PUBLIC.vocabularySize());
    long grew = 0;
    for (long k : before.counts.sortedKeys()) {
      assertThat(after.counts.get(k)).isGreaterThanOrEqualTo(before.counts.get(k));
      String gram = describe(k, tuned.trained().vocabulary, 3);
      if (after.counts.get(k) > before.counts.get(k)) {
        grew++;
        // without noise only n-grams of the private (tech) documents can grow
        assertThat(TestCorpus.FOOD_WORDS.stream().noneMatch(gram::contains)).as(gram).isTrue();
      }
    }
    assertThat(grew).isPositive();
    tuned.close();
  }

  private static String describe(long key, Vocabulary v, int order) {
    StringBuilder b = new StringBuilder();
    for (int i = order - 1; i >= 0; i--) {
      b.append(v.word((int) ((key >>> (i * Vocabulary.BITS)) & ((1L << Vocabulary.BITS) - 1)))).append(' ');
    }
    return b.toString();
  }

  @Test
  void drawsOnePoissonCoinPerDocumentAndStepAndOneGaussianPerSupportCoordinate() {
    List<Example> ex = new ArrayList<>();
    for (String d : TestCorpus.texts(5, 3)) {
      ex.add(new Example(List.of(), d));
    }
    Counting noise = new Counting(5);
    PUBLIC.fineTune(ex, new DpSgdSettings(1.0, 2.0, 7, 3, 1.0), noise).close();
    assertThat(noise.bernoullis.get()).isEqualTo(7L * ex.size());
    assertThat(noise.gaussians.get()).isEqualTo(PUBLIC.trained().globalCounts.counts.size());
  }

  @Test
  void rejectsBadSettingsNamingTheField() {
    assertThatThrownBy(() -> new DpSgdSettings(Double.NaN, 1, 1, 1, 1)).hasMessageContaining("clipNorm");
    assertThatThrownBy(() -> new DpSgdSettings(1, -1, 1, 1, 1)).hasMessageContaining("noiseMultiplier");
    List<Example> one = List.of(new Example(List.of(), "the server"));
    assertThatThrownBy(() -> PUBLIC.fineTune(one, new DpSgdSettings(1, 1, 1, 2, 1), new Counting(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedBatch");
    assertThat(new Example(List.of("k"), "secret text").toString()).doesNotContain("secret text");
  }
  @Test
  void theReleaseRebuildsTheSameGeneratorAndATamperedOneIsRefused() {
    List<Example> ex = new ArrayList<>();
    for (String d : TestCorpus.texts(12, 5)) {
      ex.add(new Example(List.of(), d));
    }
    DpSgdSettings s = new DpSgdSettings(1.0, 0.8, 20, 4, 2.0);
    NgramTextGenerator direct = PUBLIC.fineTune(ex, s, new Counting(9));
    double[] release = PUBLIC.fineTuningRelease(ex, s, new Counting(9));
    NgramTextGenerator rebuilt = PUBLIC.fromFineTuningRelease(release, s, ex.size());
    assertThat(release).hasSize(PUBLIC.trained().globalCounts.counts.size());
    long[] keys = direct.trained().globalCounts.counts.sortedKeys();
    assertThat(rebuilt.trained().globalCounts.counts.sortedKeys()).containsExactly(keys);
    for (long k : keys) {
      assertThat(rebuilt.trained().globalCounts.counts.get(k)).isEqualTo(direct.trained().globalCounts.counts.get(k));
    }
    // The release is noisy: it differs from the noiseless sum, and rebuilding draws nothing.
    double[] exact = PUBLIC.fineTuningRelease(ex, new DpSgdSettings(1.0, 0, 20, 4, 2.0), new Counting(9));
    assertThat(l2(release, exact)).isGreaterThan(0);
    assertThatThrownBy(() -> PUBLIC.fromFineTuningRelease(Arrays.copyOf(release, release.length - 1), s, ex.size()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("length=" + (release.length - 1));
    double[] nan = release.clone();
    nan[3] = Double.NaN;
    assertThatThrownBy(() -> PUBLIC.fromFineTuningRelease(nan, s, ex.size()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value 3 is not finite");
    direct.close();
    rebuilt.close();
  }
}
