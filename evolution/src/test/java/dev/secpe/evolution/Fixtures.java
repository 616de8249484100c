package dev.secpe.evolution;

import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.llm.testkit.FakeTextEmbedder;
import dev.secpe.llm.testkit.FakeTextGenerator;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/** Small real data and fake providers for end-to-end tests. */
final class Fixtures {

  static final BundledCorpus CORPUS = BundledCorpus.spamAssassin();

  private Fixtures() {}

  /** The first n private records of a fixed shuffle (both labels, about 30% spam). */
  static PrivateDataset privateData(int n) {
    return PrivateDataset.of(shuffled(CORPUS.privatePart().records()).subList(0, n));
  }

  /** The first n public records of a fixed shuffle. */
  static PublicCorpus publicData(int n) {
    return PublicCorpus.of(shuffled(CORPUS.publicPart().records()).subList(0, n));
  }

  private static <T> java.util.List<T> shuffled(java.util.List<T> list) {
    java.util.List<T> copy = new java.util.ArrayList<>(list);
    java.util.Collections.shuffle(copy, new java.util.Random(20261121));
    return copy;
  }

  /**
   * The small Aug-PE run of the resume and budget tests: 100 private records, T = 4, (2, 1e-5);
   * secure noise when {@code noise} is null.
   */
  static AugPE.Builder augpe(NoiseSource noise) {
    AugPE.Builder b = AugPE.builder()
        .privateData(privateData(100))
        .publicData(publicData(50))
        .labels(released())
        .generator(generator())
        .embedder(embedder())
        .syntheticSize(16)
        .variations(2)
        .iterations(4)
        .seed(11)
        .budget(new dev.secpe.accounting.DpBudget(2.0, 1e-5));
    return noise == null ? b : b.noise(noise);
  }

  static LabelSet released() {
    return new LabelSet.ToBeReleased(new TreeSet<>(java.util.List.of(BundledCorpus.HAM, BundledCorpus.SPAM)));
  }

  static FakeTextGenerator generator() {
    return FakeTextGenerator.builder().build();
  }

  static FakeTextEmbedder embedder() {
    return FakeTextEmbedder.builder().dimension(64).build();
  }

  /**
   * A reproducible (non-private) source that counts every draw: one stream for all releases, or
   * ({@link #perRelease}) a stream per release, as a resumed run needs to draw what an
   * uninterrupted one would.
   */
  static final class CountingNoise implements NoiseSource {
    private final NoiseSource inner;
    final AtomicLong draws;
    private final boolean perRelease;

    CountingNoise(long seed) {
      this(NoiseSources.reproducibleForTests(seed), new AtomicLong(), false);
    }

    private CountingNoise(NoiseSource inner, AtomicLong draws, boolean perRelease) {
      this.inner = inner;
      this.draws = draws;
      this.perRelease = perRelease;
    }

    /**
     * Secure noise, counted: for tests of what the privacy journal composes, which counts
     * releases drawn with seeded noise as unbounded.
     */
    static CountingNoise secure() {
      return new CountingNoise(NoiseSources.secure(), new AtomicLong(), false);
    }

    /** A stream per release ({@link NoiseSource#forRelease}), all counted together. */
    static CountingNoise perRelease(long seed) {
      return new CountingNoise(NoiseSources.reproducibleForTests(seed), new AtomicLong(), true);
    }

    @Override
    public NoiseSource forRelease(String releaseId) {
      return perRelease ? new CountingNoise(inner.forRelease(releaseId), draws, true) : this;
    }

    @Override
    public double gaussian(double sigma) {
      draws.incrementAndGet();
      return inner.gaussian(sigma);
    }

    @Override
    public double laplace(double b) {
      draws.incrementAndGet();
      return inner.laplace(b);
    }

    @Override
    public long discreteGaussian(double sigma) {
      draws.incrementAndGet();
      return inner.discreteGaussian(sigma);
    }

    @Override
    public long discreteLaplace(double b) {
      draws.incrementAndGet();
      return inner.discreteLaplace(b);
    }

    @Override
    public boolean bernoulli(double p) {
      draws.incrementAndGet();
      return inner.bernoulli(p);
    }

    @Override
    public boolean isPrivate() {
      return inner.isPrivate();
    }

    @Override
    public String description() {
      return "counting " + inner.description();
    }
  }
}
