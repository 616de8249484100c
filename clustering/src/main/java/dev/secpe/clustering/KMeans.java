package dev.secpe.clustering;

import dev.secpe.core.EmbeddingMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * k-means under {@link Metric#L2} (squared Euclidean) or {@link Metric#COSINE} (spherical
 * k-means on L2-normalised rows, SecPE Remark 3.3), with Lloyd iterations on the {@link
 * NearestNeighbours} kernel.
 *
 * <ul>
 *   <li>Seeding: k-means++ (Arthur and Vassilvitskii 2007) or k-means|| (Bahmani et al. 2012,
 *       5 rounds, oversampling 2k, then weighted k-means++ on the candidates) for large n.
 *   <li>Randomness: only the explicit seed; restart r uses the r-th {@link
 *       SplittableRandom#split()} of {@code new SplittableRandom(seed)}; no global RNG.
 *   <li>Inertia never increases. The assignment step is an exact argmin (see {@link
 *       NearestNeighbours}); a cluster's new centre (mean, or normalised mean) replaces the old
 *       one only if it strictly lowers that cluster's cost, with costs summed exactly ({@code
 *       fsum}). So the sequence is non-increasing exactly, not up to rounding.
 *   <li>Stops at a fixed point (no assignment changed), when the relative improvement is at
 *       most the tolerance, or at the iteration cap.
 *   <li>Empty clusters: see {@link EmptyClusterPolicy}; with fewer distinct points than k some
 *       clusters stay empty (size 0) under every policy, and {@link
 *       KMeansResult#withoutEmptyClusters()} drops them.
 * </ul>
 *
 * <p>Instances are immutable and thread-safe; build them with {@link #builder()}.
 */
public final class KMeans {

  /** How initial centres are chosen. */
  public enum Seeding {
    /** k-means++ D^2 sampling: k sequential passes over the data. */
    KMEANS_PLUS_PLUS,
    /** k-means||: a few oversampling rounds on the kernel; for large n. */
    KMEANS_PARALLEL,
    /** k-means|| when {@code n * k > 20,000,000}, else k-means++. The default. */
    AUTO
  }

  private final int k;
  private final Metric metric;
  private final int maxIterations;
  private final double tolerance;
  private final int restarts;
  private final long seed;
  private final Seeding seeding;
  private final EmptyClusterPolicy emptyPolicy;
  private final Backend backend;
  private final int threads;

  private KMeans(Builder b) {
    this.k = b.k;
    this.metric = b.metric;
    this.maxIterations = b.maxIterations;
    this.tolerance = b.tolerance;
    this.restarts = b.restarts;
    this.seed = b.seed;
    this.seeding = b.seeding;
    this.emptyPolicy = b.emptyPolicy;
    this.backend = b.backend;
    this.threads = b.threads;
  }

  /** A builder; {@link Builder#k(int)} and {@link Builder#seed(long)} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Clusters the rows of {@code data}.
   *
   * @throws IllegalArgumentException if k exceeds the number of rows, or (cosine) a row is zero
   * @throws IllegalStateException under {@link EmptyClusterPolicy#FAIL} when a cluster empties
   */
  public KMeansResult fit(EmbeddingMatrix data) {
    return fit(Embeddings.of("data", data));
  }

  KMeansResult fit(Embeddings data) {
    if (data == null) {
      throw new IllegalArgumentException("data must not be null");
    }
    int n = data.size();
    if (k > n) {
      throw new IllegalArgumentException(
          "k must not exceed the number of rows, got k=" + k + " rows=" + n);
    }
    int d = data.dim();
    float[] x = metric == Metric.COSINE
        ? NearestNeighbours.normalisedCopy("data", data.data(), n, d, 0)
        : data.data();
    double[] xx = new double[n];
    for (int i = 0; i < n; i++) {
      xx[i] = NearestNeighbours.exactDot(x, i * d, x, i * d, d);
    }
    Embeddings xs = Embeddings.wrapTrusted(n, d, x);
    NearestNeighbours nn = NearestNeighbours.builder()
        .metric(metric).prenormalised(true).backend(backend).threads(threads).build();
    SplittableRandom master = new SplittableRandom(seed);
    Run best = null;
    int bestRestart = -1;
    for (int r = 0; r < restarts; r++) {
      SplittableRandom rnd = master.split();
      Run run = lloyd(nn, xs, xx, seed(nn, xs, xx, rnd), r);
      if (best == null || run.last() < best.last()) {
        best = run;
        bestRestart = r;
      }
    }
    return new KMeansResult(metric, Embeddings.wrapTrusted(k, d, best.centres).toMatrix(), best.sizes,
        best.assign, best.history, best.converged, bestRestart, restarts);
  }

  private record Run(float[] centres, int[] sizes, int[] assign, double[] history,
      boolean converged) {
    double last() {
      return history[history.length - 1];
    }
  }

  /** Cost of x_i against centre c (row ci of cs): squared distance, or 1 - cos. */
  private double cost(float[] x, int i, double xxi, float[] cs, int ci, double cc, int d) {
    return costOfDot(xxi, cc, NearestNeighbours.exactDot(x, i * d, cs, ci * d, d));
  }

  /** Cost of a row against a centre from their scalar product and squared norms. */
  private double costOfDot(double xxi, double cc, double dot) {
    return metric == Metric.COSINE
        ? Math.max(0.0, 1.0 - dot)
        : NearestNeighbours.l2Score(xxi, cc, dot);
  }

  private double costFromScore(double score) {
    return metric == Metric.COSINE ? Math.max(0.0, 1.0 - score) : score;
  }

  private Run lloyd(NearestNeighbours nn, Embeddings xs, double[] xx, float[] centres, int r) {
    int n = xs.size();
    int d = xs.dim();
    float[] x = xs.data();
    double[] history = new double[maxIterations];
    int[] assign = null;
    int[] sizes = new int[k];
    boolean converged = false;
    int it = 0;
    while (it < maxIterations) {
      NearestNeighbours.Top1 t = nn.top1(xs, Embeddings.wrapTrusted(k, d, centres));
      int[] next = t.index();
      double[] sc = t.score();
      double[] cost = new double[n];
      ExactSum total = new ExactSum();
      for (int i = 0; i < n; i++) {
        cost[i] = costFromScore(sc[i]);
        total.add(cost[i]);
      }
      history[it] = total.value();
      boolean same = assign != null && Arrays.equals(assign, next);
      assign = next;
      Arrays.fill(sizes, 0);
      for (int a : assign) {
        sizes[a]++;
      }
      it++;
      if (same || (it > 1 && history[it - 2] - history[it - 1] <= tolerance * history[it - 2])) {
        converged = true;
        break;
      }
      if (it == maxIterations) {
        break;
      }
      centres = update(x, xx, n, d, centres, assign, sizes, cost, it, r);
    }
    return new Run(centres, sizes.clone(), assign, Arrays.copyOf(history, it), converged);
  }

  /** The update step: accept-if-strictly-better means, then the empty-cluster policy. */
  private float[] update(float[] x, double[] xx, int n, int d, float[] old, int[] assign,
      int[] sizes, double[] cost, int iteration, int restart) {
    double[] sums = new double[k * d];
    for (int i = 0; i < n; i++) {
      int a = assign[i];
      for (int j = 0; j < d; j++) {
        sums[a * d + j] += x[i * d + j];
      }
    }
    float[] cand = old.clone();
    for (int c = 0; c < k; c++) {
      if (sizes[c] == 0) {
        continue;
      }
      double norm2 = 0;
      for (int j = 0; j < d; j++) {
        double m = sums[c * d + j] / sizes[c];
        sums[c * d + j] = m;
        norm2 += m * m;
      }
      if (metric == Metric.COSINE) {
        if (!(norm2 > 0)) {
          continue; // points cancel out: no direction, keep the old centre
        }
        double inv = 1.0 / Math.sqrt(norm2);
        for (int j = 0; j < d; j++) {
          cand[c * d + j] = (float) (sums[c * d + j] * inv);
        }
      } else {
        for (int j = 0; j < d; j++) {
          cand[c * d + j] = (float) sums[c * d + j];
        }
      }
    }
    double[] cc = new double[k];
    for (int c = 0; c < k; c++) {
      cc[c] = NearestNeighbours.exactDot(cand, c * d, cand, c * d, d);
    }
    ExactSum[] newCost = new ExactSum[k];
    ExactSum[] oldCost = new ExactSum[k];
    for (int c = 0; c < k; c++) {
      newCost[c] = new ExactSum();
      oldCost[c] = new ExactSum();
    }
    for (int i = 0; i < n; i++) {
      int a = assign[i];
      newCost[a].add(cost(x, i, xx[i], cand, a, cc[a], d));
      oldCost[a].add(cost[i]);
    }
    float[] out = old.clone();
    for (int c = 0; c < k; c++) {
      if (sizes[c] > 0 && newCost[c].value() < oldCost[c].value()) {
        System.arraycopy(cand, c * d, out, c * d, d);
      }
    }
    boolean anyEmpty = false;
    for (int c = 0; c < k; c++) {
      anyEmpty |= sizes[c] == 0;
    }
    if (anyEmpty) {
      switch (emptyPolicy) {
        case KEEP_PREVIOUS_CENTRE -> { }
        case FAIL -> {
          for (int c = 0; c < k; c++) {
            if (sizes[c] == 0) {
              throw new IllegalStateException(
                  "k-means cluster " + c + " became empty at iteration " + iteration
                      + " of restart " + restart + " (emptyClusterPolicy=FAIL); use "
                      + "KEEP_PREVIOUS_CENTRE or RESEED_FARTHEST, or a smaller k=" + k);
            }
          }
        }
        case RESEED_FARTHEST -> {
          Integer[] order = new Integer[n];
          for (int i = 0; i < n; i++) {
            order[i] = i;
          }
          Arrays.sort(order, (p, q) -> {
            int cmp = Double.compare(cost[q], cost[p]);
            return cmp != 0 ? cmp : Integer.compare(p, q);
          });
          int next = 0;
          for (int c = 0; c < k; c++) {
            if (sizes[c] == 0) {
              int p = order[next++];
              System.arraycopy(x, p * d, out, c * d, d);
            }
          }
        }
        default -> throw new AssertionError(emptyPolicy);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------- seeding

  private float[] seed(NearestNeighbours nn, Embeddings xs, double[] xx, SplittableRandom rnd) {
    int n = xs.size();
    boolean parallel = seeding == Seeding.KMEANS_PARALLEL
        || (seeding == Seeding.AUTO && (long) n * k > 20_000_000L);
    if (!parallel) {
      double[] w = new double[n];
      Arrays.fill(w, 1.0);
      int[] picks = plusPlus(xs.data(), xx, n, xs.dim(), w, rnd);
      return gather(xs.data(), xs.dim(), picks);
    }
    return parallelSeed(nn, xs, xx, rnd);
  }

  /** Weighted k-means++ over the rows of x (float D^2 with a fixed loop order: deterministic). */
  /** Scalar products below which one k-means++ pass over the rows stays on one thread. */
  private static final long MIN_SEED_WORK = 1L << 18;

  private int[] plusPlus(float[] x, double[] xx, int n, int d, double[] weight,
      SplittableRandom rnd) {
    int[] picks = new int[k];
    double[] d2 = new double[n];
    Arrays.fill(d2, Double.POSITIVE_INFINITY);
    picks[0] = sampleWeighted(weight, rnd);
    // Rows split over the threads: each row's D^2 is its own (no reduction across rows), so the
    // picks do not depend on the number of threads.
    int parts = (int) Math.max(1, Math.min(threads, (long) n * d / MIN_SEED_WORK));
    int chunk = (n + parts - 1) / parts;
    for (int c = 1; c <= k; c++) {
      int p = picks[c - 1];
      double pp = xx[p];
      NearestNeighbours.fork(parts, t -> {
        for (int i = t * chunk, end = Math.min(n, i + chunk); i < end; i++) {
          double dist = costOfDot(xx[i], pp, NearestNeighbours.exactDotUnrolled(x, i * d, x, p * d, d));
          if (dist < d2[i]) {
            d2[i] = dist;
          }
        }
      });
      if (c == k) {
        break;
      }
      double[] w = new double[n];
      double tot = 0;
      for (int i = 0; i < n; i++) {
        w[i] = weight[i] * Math.max(0, d2[i]);
        tot += w[i];
      }
      picks[c] = tot > 0 ? sampleWeighted(w, rnd) : firstUnpicked(picks, c, n);
    }
    return picks;
  }

  private static int firstUnpicked(int[] picks, int c, int n) {
    outer:
    for (int i = 0; i < n; i++) {
      for (int q = 0; q < c; q++) {
        if (picks[q] == i) {
          continue outer;
        }
      }
      return i;
    }
    return 0;
  }

  private static int sampleWeighted(double[] w, SplittableRandom rnd) {
    double tot = 0;
    for (double v : w) {
      tot += v;
    }
    double u = rnd.nextDouble() * tot;
    double acc = 0;
    int last = 0;
    for (int i = 0; i < w.length; i++) {
      if (w[i] > 0) {
        acc += w[i];
        last = i;
        if (u < acc) {
          return i;
        }
      }
    }
    return last;
  }

  private float[] parallelSeed(NearestNeighbours nn, Embeddings xs, double[] xx,
      SplittableRandom rnd) {
    int n = xs.size();
    int d = xs.dim();
    float[] x = xs.data();
    int ell = 2 * k;
    int rounds = 5;
    int first = rnd.nextInt(n);
    List<Integer> chosen = new ArrayList<>();
    boolean[] inC = new boolean[n];
    chosen.add(first);
    inC[first] = true;
    double[] d2 = new double[n];
    for (int i = 0; i < n; i++) {
      d2[i] = cost(x, i, xx[i], x, first, xx[first], d);
    }
    for (int round = 0; round < rounds; round++) {
      double psi = 0;
      for (double v : d2) {
        psi += v;
      }
      if (!(psi > 0)) {
        break;
      }
      int[] fresh = new int[n];
      int m = 0;
      for (int i = 0; i < n; i++) {
        double pr = ell * d2[i] / psi;
        if (!inC[i] && rnd.nextDouble() < pr) {
          fresh[m++] = i;
          inC[i] = true;
          chosen.add(i);
        }
      }
      if (m == 0) {
        continue;
      }
      Embeddings batch = Embeddings.wrapTrusted(m, d, gather(x, d, Arrays.copyOf(fresh, m)));
      double[] sc = nn.top1(xs, batch).score();
      for (int i = 0; i < n; i++) {
        d2[i] = Math.min(d2[i], costFromScore(sc[i]));
      }
    }
    int[] cand = chosen.stream().mapToInt(Integer::intValue).toArray();
    if (cand.length <= k) { // too few candidates: top up with k-means++ on all points
      double[] w = new double[n];
      Arrays.fill(w, 1.0);
      return gather(x, d, plusPlus(x, xx, n, d, w, rnd));
    }
    float[] cx = gather(x, d, cand);
    NearestNeighbours.Top1 t = nn.top1(xs, Embeddings.wrapTrusted(cand.length, d, cx));
    double[] weight = new double[cand.length];
    for (int i : t.index()) {
      weight[i] += 1;
    }
    double[] cxx = new double[cand.length];
    for (int i = 0; i < cand.length; i++) {
      cxx[i] = xx[cand[i]];
    }
    int[] picks = plusPlus(cx, cxx, cand.length, d, weight, rnd);
    return gather(cx, d, picks);
  }

  private static float[] gather(float[] x, int d, int[] rows) {
    float[] out = new float[rows.length * d];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(x, rows[i] * d, out, i * d, d);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------- builder

  /** Builder; each setter validates at once, {@link #build()} checks required values. */
  public static final class Builder extends KernelBuilder<Builder> {
    private int k = -1;
    private int maxIterations = 100;
    private double tolerance = 1e-6;
    private int restarts = 1;
    private Long seedValue;
    private long seed;
    private Seeding seeding = Seeding.AUTO;
    private EmptyClusterPolicy emptyPolicy = EmptyClusterPolicy.KEEP_PREVIOUS_CENTRE;

    Builder() {
      super(Metric.L2);
    }

    @Override
    Builder self() {
      return this;
    }

    /** Number of clusters (required, >= 1; must not exceed the rows given to fit). */
    public Builder k(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("k must be >= 1, got k=" + k);
      }
      this.k = k;
      return this;
    }

    /** {@link Metric#L2} (the default) or {@link Metric#COSINE} (spherical k-means). */
    public Builder metric(Metric metric) {
      return setMetric(metric);
    }

    /** Cap on Lloyd iterations (assignment steps), default 100. */
    public Builder maxIterations(int maxIterations) {
      if (maxIterations < 1) {
        throw new IllegalArgumentException(
            "maxIterations must be >= 1, got maxIterations=" + maxIterations);
      }
      this.maxIterations = maxIterations;
      return this;
    }

    /** Stop when the relative inertia improvement is at most this (>= 0, default 1e-6). */
    public Builder tolerance(double tolerance) {
      if (!(tolerance >= 0) || !Double.isFinite(tolerance)) {
        throw new IllegalArgumentException(
            "tolerance must be finite and >= 0, got tolerance=" + tolerance);
      }
      this.tolerance = tolerance;
      return this;
    }

    /** Independent restarts; the lowest final inertia wins (default 1). */
    public Builder restarts(int restarts) {
      if (restarts < 1) {
        throw new IllegalArgumentException("restarts must be >= 1, got restarts=" + restarts);
      }
      this.restarts = restarts;
      return this;
    }

    /** The seed (required): restart r uses the r-th split of {@code SplittableRandom(seed)}. */
    public Builder seed(long seed) {
      this.seed = seed;
      this.seedValue = seed;
      return this;
    }

    /** Seeding method (default {@link Seeding#AUTO}). */
    public Builder seeding(Seeding seeding) {
      this.seeding = Require.nonNull("seeding", seeding);
      return this;
    }

    /** Empty-cluster policy (default {@link EmptyClusterPolicy#KEEP_PREVIOUS_CENTRE}). */
    public Builder emptyClusterPolicy(EmptyClusterPolicy policy) {
      this.emptyPolicy = Require.nonNull("emptyClusterPolicy", policy);
      return this;
    }

    /** An immutable k-means configuration. */
    public KMeans build() {
      if (k < 1) {
        throw new IllegalStateException("k is required: call k(int) before build()");
      }
      if (seedValue == null) {
        throw new IllegalStateException(
            "seed is required (no global RNG): call seed(long) before build()");
      }
      return new KMeans(this);
    }

    @Override
    public String toString() {
      return "KMeans.Builder{k=" + k + ", metric=" + metric + ", maxIterations=" + maxIterations
          + ", tolerance=" + tolerance + ", restarts=" + restarts + ", seed=" + seedValue
          + ", seeding=" + seeding + ", emptyClusterPolicy=" + emptyPolicy + "}";
    }
  }
}
