package dev.secpe.cli.bench;

import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.accounting.secret.SecretNoiseResult;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.clustering.SecretClustering;
import dev.secpe.clustering.SecretClusteringResult;
import dev.secpe.clustering.internal.KernelProbe;
import dev.secpe.core.EmbeddingMatrix;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aug-PE's vote (every private embedding votes for its nearest candidate) against SecPE's
 * representative vote (K noisy centres vote), on synthetic Gaussian-mixture embeddings streamed
 * in bounded memory. SecPE's time is reported with and without its one-off secret clustering
 * (Bernoulli sampling with every rho_i = 1, i.e. the worst case, clipping, assignment of every
 * private vector to the K public centres, noise, ledger charge): {@code ratio} uses the time
 * WITH it, {@code ratio_vote_only} without. Public k-means is timed apart (public data, once).
 * Cosine throughout (Remark 3.3).
 *
 * <p>Aug-PE's round is also set against its floor: its FLOPs ({@code 2 x private x candidates x
 * d}) at the GEMM rate measured in the same run (OpenBLAS, a 4096 x 8192 x d float GEMM, best of 3,
 * before and after the round, the faster kept), with the peak heap, off-heap (the kernel's
 * native arrays and direct buffers) and resident memory during the round: the private vectors
 * are streamed block by block, never held whole.
 */
public final class VoteBenchmark {

  /**
   * @param name scale name
   * @param privateRows private embeddings (streamed)
   * @param k public clusters K
   * @param candidates candidate embeddings
   * @param d dimension
   * @param publicRows public embeddings for k-means
   * @param components mixture components
   * @param kmeansIterations Lloyd iterations for the public k-means
   * @param threads kernel threads (0 = default)
   * @param seed data seed
   */
  public record Config(String name, long privateRows, int k, int candidates, int d,
      int publicRows, int components, int kmeansIterations, int threads, long seed) {

    /** Finishes in well under a minute on 2 cores. */
    public static Config small() {
      return new Config("small", 100_000, 100, 5_000, 384, 10_000, 100, 5, 0, 1);
    }

    /** SecPE's Yelp setting: 1.9 M private, K = 800, 35 k candidates, d = 384. */
    public static Config yelp() {
      return new Config("yelp", 1_900_000, 800, 35_000, 384, 40_000, 400, 5, 0, 1);
    }
  }

  private VoteBenchmark() {}

  /** Runs the benchmark; returns a flat, ordered map ready to print as JSON. */
  public static Map<String, Object> run(Config c) {
    GaussianMixtureRows priv =
        new GaussianMixtureRows(c.privateRows(), c.d(), c.components(), 0.6, 7, c.seed());
    EmbeddingMatrix pub = new GaussianMixtureRows(c.publicRows(), c.d(), c.components(), 0.6, 7,
        c.seed() + 1).materialise(c.publicRows());
    EmbeddingMatrix cand = new GaussianMixtureRows(c.candidates(), c.d(), c.components(), 0.6, 7,
        c.seed() + 2).materialise(c.candidates());
    NearestNeighbours.Builder nb = NearestNeighbours.builder().metric(Metric.COSINE);
    KMeans.Builder kb = KMeans.builder().k(c.k()).metric(Metric.COSINE).seed(c.seed())
        .maxIterations(c.kmeansIterations());
    if (c.threads() > 0) {
      nb.threads(c.threads());
      kb.threads(c.threads());
    }
    NearestNeighbours nn = nb.build();
    nn.top1(RowSource.of(pub), cand); // warm-up: loads OpenBLAS, JIT

    long t0 = System.nanoTime();
    KMeansResult km = kb.build().fit(pub);
    double kmeansS = (System.nanoTime() - t0) / 1e9;

    double gemmBefore = gemmGflops(c.d());

    // Aug-PE: every private vector votes (the cost of ONE round; it recurs every round).
    MemoryPeaks peaks = MemoryPeaks.start();
    KernelProbe kp = KernelProbe.start(false);
    long[] augpe;
    t0 = System.nanoTime();
    try {
      augpe = nn.nearestCounts(priv, cand);
    } finally {
      kp.stop();
    }
    double augpeS = (System.nanoTime() - t0) / 1e9;
    peaks.stop();
    double gemmAfter = gemmGflops(c.d());
    // The faster of the two measurements: on a shared machine the slower one is the load's.
    double gemmGflops = Math.max(gemmBefore, gemmAfter);
    long phases = 0;
    for (KernelProbe.Phase p : KernelProbe.Phase.values()) {
      phases += kp.nanos(p);
    }
    double augpeFlops = 2.0 * c.privateRows() * c.candidates() * c.d();
    double floorS = augpeFlops / (gemmGflops * 1e9);

    // SecPE: secret clustering once, then the representative vote.
    int n = (int) c.privateRows();
    double[] rho = new double[n];
    Arrays.fill(rho, 1.0);
    SecretNoiseResult noise =
        new SecretNoiseResult(4.0, new double[] {4.0}, rho, rho, n, 1, Math.sqrt(2));
    List<int[]> none = new AbstractList<>() {
      private final int[] empty = new int[0];
      private final int[] first = {0};

      @Override
      public int[] get(int i) {
        return i == 0 ? first : empty; // one secret, held by record 0
      }

      @Override
      public int size() {
        return n;
      }
    };
    int[] sizes = km.sizes();
    for (int q = 0; q < sizes.length; q++) {
      sizes[q] = Math.max(1, sizes[q]);
    }
    SecretClustering.Builder sb = SecretClustering.builder()
        .publicClusters(km.centres(), sizes)
        .secretNoise(noise, none)
        .noise(NoiseSources.secure())
        .ledger(PrivacyLedger.unlimited())
        .releaseId("bench/secret-clustering");
    if (c.threads() > 0) {
      sb.threads(c.threads());
    }
    t0 = System.nanoTime();
    SecretClusteringResult reps = sb.build().release(priv);
    double clusterS = (System.nanoTime() - t0) / 1e9;
    t0 = System.nanoTime();
    double[] secpe = representativeVote(nn, reps, cand);
    double voteS = (System.nanoTime() - t0) / 1e9;

    // What the secure sampler alone costs at this size (same draws as the release: n Bernoulli,
    // K counts, K centre vectors of d), to separate it from the assignment in the line above.
    NoiseSource probe = NoiseSources.secure();
    t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      probe.bernoulli(1.0);
    }
    double[] xi = new double[c.d()];
    for (int q = 0; q < c.k(); q++) {
      probe.gaussian(4.0);
      probe.gaussian(4.0, xi);
    }
    double samplingS = (System.nanoTime() - t0) / 1e9;

    long augpeNonZero = Arrays.stream(augpe).filter(v -> v > 0).count();
    long secpeNonZero = Arrays.stream(secpe).filter(v -> v != 0).count();
    Map<String, Object> out = new LinkedHashMap<>();
    double secpeS = clusterS + voteS;
    out.put("augpe_seconds", augpeS);
    out.put("augpe_floor_seconds", floorS);
    out.put("augpe_floor_ratio", augpeS / floorS);
    out.put("augpe_gflops", augpeFlops / augpeS / 1e9);
    out.put("gemm_gflops", gemmGflops);
    out.put("gemm_gflops_before", gemmBefore);
    out.put("gemm_gflops_after", gemmAfter);
    out.put("augpe_scan", kp.scan());
    out.put("augpe_gemm_share", (double) kp.nanos(KernelProbe.Phase.GEMM) / phases);
    out.put("augpe_scan_share", (double) kp.nanos(KernelProbe.Phase.SCAN) / phases);
    out.put("augpe_prepare_share", (double) kp.nanos(KernelProbe.Phase.PREPARE) / phases);
    out.put("augpe_rescore_share", (double) kp.nanos(KernelProbe.Phase.RESCORE) / phases);
    out.put("augpe_block_rows", kp.blockRows());
    out.put("augpe_chunk_columns", kp.chunkColumns());
    out.put("augpe_peak_heap_bytes", peaks.heap);
    out.put("augpe_peak_offheap_bytes", kp.peakNativeBytes() + peaks.direct);
    out.put("augpe_kernel_native_bytes", kp.peakNativeBytes());
    out.put("augpe_rss_before_bytes", peaks.rssBefore);
    out.put("augpe_peak_rss_bytes", peaks.rss);
    out.put("private_matrix_bytes", 4L * c.privateRows() * c.d());
    out.put("secpe_seconds", secpeS);
    out.put("ratio", augpeS / secpeS);
    out.put("secpe_vote_only_seconds", voteS);
    out.put("ratio_vote_only", augpeS / voteS);
    out.put("secpe_secret_clustering_seconds", clusterS);
    out.put("secure_sampling_seconds_estimate", samplingS);
    out.put("public_kmeans_seconds", kmeansS);
    out.put("public_kmeans_iterations", km.iterations());
    out.put("scale", c.name());
    out.put("private_rows", c.privateRows());
    out.put("k", c.k());
    out.put("candidates", c.candidates());
    out.put("d", c.d());
    out.put("public_rows", c.publicRows());
    out.put("threads", nn.threads());
    out.put("backend", nn.resolvedBackend().toString());
    out.put("openblas_coretype", String.valueOf(System.getenv("OPENBLAS_CORETYPE")));
    out.put("augpe_candidates_with_votes", augpeNonZero);
    out.put("secpe_candidates_with_votes", secpeNonZero);
    out.put("representatives_released", reps.size());
    out.put("note", "secpe_seconds includes the one-off secret clustering (sampling, clipping, "
        + "assignment of every private vector to K centres, noise); Aug-PE pays augpe_seconds "
        + "every round, SecPE pays only the vote after the first round. Synthetic data is "
        + "generated on the fly inside both timings. augpe_floor_seconds: the round's FLOPs at "
        + "gemm_gflops (OpenBLAS GEMM measured in this run, before and after the round, the faster "
        + "kept); *_share: the kernel's time per phase; "
        + "peaks during the Aug-PE round: heap (sum of the heap pools' peaks, garbage not yet "
        + "collected included), off-heap (the kernel's native arrays, counted at allocation, plus "
        + "direct buffers, sampled every 10 ms) and resident set (sampled); "
        + "private_matrix_bytes is what one copy of the private vectors would take.");
    return out;
  }

  /** SecPE's representative vote: each released centre's noisy count to its nearest candidate. */
  static double[] representativeVote(NearestNeighbours nn, SecretClusteringResult released,
      EmbeddingMatrix candidates) {
    double[] h = new double[candidates.rows()];
    if (released.size() == 0) {
      return h;
    }
    int[] nearest = nn.top1(RowSource.of(released.centres()), candidates).index();
    double[] counts = released.counts();
    for (int q = 0; q < nearest.length; q++) {
      h[nearest[q]] += counts[q];
    }
    return h;
  }

  /** OpenBLAS's float GEMM rate on a 4096 x 8192 x d product, best of 3 (after one warm-up). */
  static double gemmGflops(int d) {
    int m = 4096;
    int n = 8192;
    double best = Double.POSITIVE_INFINITY;
    try (OpenBlasGemmReference g = OpenBlasGemmReference.random(m, n, d, 1)) {
      for (int r = 0; r < 4; r++) {
        double s = g.time();
        if (r > 0) {
          best = Math.min(best, s);
        }
      }
    }
    return 2.0 * m * n * d / best / 1e9;
  }

  /**
   * Peak memory while a section runs: the heap pools' peaks (reset at the start, after a GC),
   * and direct-buffer and resident bytes sampled every 10 ms on a daemon thread.
   */
  static final class MemoryPeaks {
    private volatile boolean running = true;
    private final Thread sampler;
    long heap;
    volatile long direct;
    volatile long rss;
    long rssBefore;

    private MemoryPeaks() {
      sampler = new Thread(() -> {
        while (running) {
          sample();
          try {
            Thread.sleep(10);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "secpe-bench-memory");
      sampler.setDaemon(true);
    }

    static MemoryPeaks start() {
      System.gc();
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        p.resetPeakUsage();
      }
      MemoryPeaks m = new MemoryPeaks();
      m.rssBefore = residentBytes();
      m.sample();
      m.sampler.start();
      return m;
    }

    private void sample() {
      long used = 0;
      for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
        used += b.getMemoryUsed();
      }
      direct = Math.max(direct, used);
      rss = Math.max(rss, residentBytes());
    }

    /** The process's resident set ({@code VmRSS} of /proc/self/status), or -1 where there is none. */
    static long residentBytes() {
      try {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
          if (line.startsWith("VmRSS:")) {
            return 1024L * Long.parseLong(line.replaceAll("[^0-9]", ""));
          }
        }
      } catch (IOException | RuntimeException e) {
        return -1;
      }
      return -1;
    }

    void stop() {
      running = false;
      sampler.interrupt();
      try {
        sampler.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sample();
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
          heap += p.getPeakUsage().getUsed();
        }
      }
    }
  }
}
