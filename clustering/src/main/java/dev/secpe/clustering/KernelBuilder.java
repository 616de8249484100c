package dev.secpe.clustering;

/**
 * What every builder of this package that runs a distance kernel sets alike: the metric, the
 * backend and the worker threads (package-private). The public builders ({@link KMeans.Builder},
 * {@link NearestNeighbours.Builder}, {@link SecretClustering.Builder}) inherit the backend and
 * threads setters, which javadoc shows on each of them; each declares its own metric setter, since
 * the metric's default and meaning are its own. The checks and their errors live in {@link
 * Require}.
 *
 * @param <B> the builder itself, so that the inherited setters chain
 */
abstract class KernelBuilder<B extends KernelBuilder<B>> {
  Metric metric;
  Backend backend = Backend.AUTO;
  int threads = Runtime.getRuntime().availableProcessors();

  KernelBuilder(Metric defaultMetric) {
    this.metric = defaultMetric;
  }

  /** This builder, typed as itself. */
  abstract B self();

  /** Sets the metric; the subclass's own setter documents it. */
  final B setMetric(Metric metric) {
    this.metric = Require.nonNull("metric", metric);
    return self();
  }

  /**
   * The kernel backend (default {@link Backend#AUTO}).
   *
   * @throws IllegalArgumentException if {@code backend} is null
   */
  public B backend(Backend backend) {
    this.backend = Require.nonNull("backend", backend);
    return self();
  }

  /**
   * Kernel worker threads, in 1..1024 (default: available processors).
   *
   * @throws IllegalArgumentException if {@code threads} is outside 1..1024
   */
  public B threads(int threads) {
    this.threads = Require.threads(threads);
    return self();
  }
}
