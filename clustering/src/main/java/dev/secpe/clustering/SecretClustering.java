package dev.secpe.clustering;

import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.secret.SecretNoiseResult;
import dev.secpe.core.EmbeddingMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * SecPE's secret clustering (Algorithm 2, Theorem 1): public k-means centres {@code e_k} with
 * sizes {@code n_k} are shifted by the private embeddings and released once with noise.
 *
 * <ol>
 *   <li>The release is charged to the ledger first (before any randomness is drawn) with cost
 *       {@link PrivacyCost.SecretMixture}{@code (sigma, sqrt(2), rho of the records holding each
 *       secret)}: counts and centres together shift by {@code sqrt(2) S_j} in units of their
 *       noise (docs/math-decisions.md §4; the paper's Theorem 1 calibrates as if it were {@code S_j}).
 *   <li>Record i is sampled with probability {@code rho_i} (Bernoulli, from the {@link
 *       NoiseSource}).
 *   <li>Each sampled embedding is clipped, {@code Clip_R(e) = e min(1, R/|e|)} (under {@link
 *       Metric#COSINE} it is normalised and R = 1, Remark 3.3), and assigned to its nearest
 *       public centre; {@code m_k} counts them and {@code s_k} sums them.
 *   <li>Released, per eq. (7): {@code n~_k = n_k + m_k + N(0, sigma^2)} and {@code e~_k = (n_k
 *       e_k + s_k) / (n_k + m_k) + (2R / n_k) N(0, sigma^2 I_d)}. If a public centre lies outside
 *       the ball of radius R the centre noise is scaled by {@code (R + |e_k|) / (2R)} instead,
 *       which keeps the bound of Theorem 5's proof ({@code |e~_k - e~'_k| <= S (R +
 *       max(R, |e_k|)) / n_k}) conservative.
 *   <li>Noisy counts {@code <= 0} are handled by the chosen {@link NonPositiveCountPolicy}
 *       (post-processing: free).
 * </ol>
 *
 * <p>{@code sigma} must come from {@link dev.secpe.accounting.secret.SecretNoise} calibrated
 * with shift multiplier {@code sqrt(2)}; anything smaller is refused. Release once (docs/math-decisions.md §5):
 * every later round votes with the same representatives at no further cost.
 *
 * <p>Build with {@link #builder()}; an instance performs exactly one release.
 */
public final class SecretClustering {

  /** The shift multiplier for a joint count and centre release (docs/math-decisions.md §4). */
  public static final double COUNT_AND_CENTRE_SHIFT = Math.sqrt(2);

  /** The mechanism name of every secret-clustering release. */
  public static final String MECHANISM = "SecPE secret clustering (Gaussian, Bernoulli-sampled mixture)";

  private final Metric metric;
  private final float[] centres;
  private final int[] sizes;
  private final int k;
  private final int d;
  private final double radius;
  private final SecretNoiseResult secretNoise;
  private final double[][] shiftProbs;
  private final NoiseSource noise;
  private final LedgerCharge ledger;
  private final String releaseId;
  private final String secretSet;
  private final Release chargedAs;
  private final NonPositiveCountPolicy policy;
  private final ClusterAggregator aggregator;
  private boolean used;

  private SecretClustering(Builder b) {
    this.metric = b.metric;
    this.k = b.sizes.length;
    this.d = b.centres.dim();
    this.sizes = b.sizes.clone();
    this.centres = metric == Metric.COSINE
        ? NearestNeighbours.normalisedCopy("publicCentres", b.centres.data(), k, d, 0)
        : b.centres.data();
    this.radius = metric == Metric.COSINE ? 1.0 : b.radius;
    this.secretNoise = b.secretNoise;
    this.shiftProbs = b.shiftProbs;
    this.noise = b.noise;
    this.chargedAs = b.chargedAs;
    this.ledger = b.callerCharges ? r -> r : b.ledger;
    this.releaseId = b.chargedAs != null ? b.chargedAs.id() : b.releaseId;
    this.secretSet = b.secretSet;
    this.policy = b.policy;
    this.aggregator = ClusterAggregator.of(metric, b.centres, this.radius, b.backend, b.threads);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Performs the release on the private embeddings (row i is record i of the {@link
   * SecretNoiseResult}). Single use.
   *
   * @throws IllegalArgumentException if the embeddings do not match (rows, dim) or hold a NaN,
   *     an infinity or (cosine) a zero vector; when such a row is only found while streaming,
   *     the release has already been charged (conservative) and nothing is released
   * @throws IllegalStateException on a second call
   */
  public synchronized SecretClusteringResult release(RowSource privateEmbeddings) {
    if (used) {
      throw new IllegalStateException(
          "this SecretClustering already released " + releaseId + "; build a new one");
    }
    if (privateEmbeddings == null) {
      throw new IllegalArgumentException("privateEmbeddings must not be null");
    }
    if (privateEmbeddings.dim() != d) {
      throw new IllegalArgumentException(
          "privateEmbeddings.dim must equal the public centres' dim, got privateEmbeddings.dim="
              + privateEmbeddings.dim() + " centres.dim=" + d);
    }
    double[] rho = secretNoise.rho();
    if (privateEmbeddings.rows() != rho.length) {
      throw new IllegalArgumentException(
          "privateEmbeddings.rows must equal the records of the SecretNoiseResult, got "
              + "privateEmbeddings.rows=" + privateEmbeddings.rows() + " records=" + rho.length);
    }
    return releaseWith(sampled -> aggregator.aggregate(privateEmbeddings, sampled, sampled.length));
  }

  /**
   * Performs the release on private rows held elsewhere, for example in the partitions of a
   * cluster. The Bernoulli sampling is drawn here, after the charge; {@code aggregateOfSampled} is
   * called once with the sampled record indices (ascending, each below the number of records of
   * the {@link SecretNoiseResult}) and must return {@link ClusterAggregator#aggregate} of exactly
   * those rows, under an aggregator built with this release's metric, public centres and radius
   * (merged from partial aggregates: the merge is exact). Single use.
   *
   * @throws IllegalArgumentException if the aggregate's shape does not match the public clusters
   * @throws IllegalStateException on a second call
   */
  public synchronized SecretClusteringResult release(
      Function<int[], ClusterAggregate> aggregateOfSampled) {
    if (used) {
      throw new IllegalStateException(
          "this SecretClustering already released " + releaseId + "; build a new one");
    }
    if (aggregateOfSampled == null) {
      throw new IllegalArgumentException("aggregateOfSampled must not be null");
    }
    return releaseWith(sampled -> {
      ClusterAggregate a = aggregateOfSampled.apply(sampled);
      if (a == null || a.centres() != k || a.dimension() != d) {
        throw new IllegalArgumentException(
            "the aggregate must have one count and one sum per public centre (" + k + " x d=" + d
                + "), got " + a);
      }
      return a;
    });
  }

  /**
   * The release this clustering makes, as it is charged before any noise is drawn: its id, the
   * mechanism "SecPE secret clustering (Gaussian, Bernoulli-sampled mixture)", sensitivity {@link
   * #COUNT_AND_CENTRE_SHIFT}, noise sigma, and per secret the mixture of the Bernoulli-sampled
   * records holding it ({@link PrivacyCost.SecretMixture}). With {@link Builder#chargedAs} it is
   * the release the caller charged instead.
   */
  public Release plannedRelease() {
    if (chargedAs != null) {
      return chargedAs;
    }
    return new Release(
        releaseId,
        MECHANISM,
        k + " noisy cluster counts and " + k + " noisy centres (d=" + d + ", R=" + radius + ")",
        COUNT_AND_CENTRE_SHIFT,
        secretNoise.sigma(),
        new PrivacyCost.SecretMixture(secretNoise.sigma(), COUNT_AND_CENTRE_SHIFT, deepCopy(shiftProbs), secretSet));
  }

  private SecretClusteringResult releaseWith(Function<int[], ClusterAggregate> aggregateOf) {
    double[] rho = secretNoise.rho();
    used = true;
    double sigma = secretNoise.sigma();
    double[] centreNoiseScale = new double[k];
    double maxScale = 0;
    for (int c = 0; c < k; c++) {
      double norm = Math.sqrt(NearestNeighbours.exactDot(centres, c * d, centres, c * d, d));
      centreNoiseScale[c] = (radius + Math.max(radius, norm)) / sizes[c];
      maxScale = Math.max(maxScale, centreNoiseScale[c]);
    }
    // 1. Charge before any randomness is drawn (unless the caller charged it already).
    Release release = plannedRelease();
    Release charged = ledger.charge(release);
    // 2. Bernoulli(rho_i) sampling.
    int n = rho.length;
    int[] sampled = new int[16];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (noise.bernoulli(rho[i])) {
        if (m == sampled.length) {
          sampled = Arrays.copyOf(sampled, m * 2);
        }
        sampled[m++] = i;
      }
    }
    // 3. Clip (or normalise) the sampled rows, assign to the nearest public centre, accumulate
    // (integer counts and exact sums: the same on one machine as merged from partitions).
    ClusterAggregate aggregate = aggregateOf.apply(Arrays.copyOf(sampled, m));
    // 4. Noise, eq. (7).
    double[] sums = aggregate.sums();
    double[] noisyCount = new double[k];
    float[] noisyCentre = new float[k * d];
    double[] xi = new double[d];
    for (int c = 0; c < k; c++) {
      long assigned = aggregate.count(c);
      noisyCount[c] = sizes[c] + assigned + noise.gaussian(sigma);
      noise.gaussian(sigma, xi);
      double denom = sizes[c] + assigned;
      for (int j = 0; j < d; j++) {
        double mean = ((double) sizes[c] * centres[c * d + j] + sums[c * d + j]) / denom;
        noisyCentre[c * d + j] = (float) (mean + centreNoiseScale[c] * xi[j]);
      }
    }
    Arrays.fill(sums, 0); // private aggregates do not outlive the release
    aggregate.clear();
    // 5. Post-processing policy for non-positive noisy counts.
    List<Integer> kept = new ArrayList<>();
    for (int c = 0; c < k; c++) {
      if (noisyCount[c] > 0 || policy != NonPositiveCountPolicy.DROP) {
        kept.add(c);
      }
    }
    int kk = kept.size();
    float[] outCentres = new float[kk * d];
    double[] outCounts = new double[kk];
    int[] outIndex = new int[kk];
    for (int q = 0; q < kk; q++) {
      int c = kept.get(q);
      System.arraycopy(noisyCentre, c * d, outCentres, q * d, d);
      outCounts[q] = policy == NonPositiveCountPolicy.CLAMP_TO_ONE && !(noisyCount[c] > 0)
          ? 1.0 : noisyCount[c];
      outIndex[q] = c;
    }
    return new SecretClusteringResult(
        kk == 0 ? null : Embeddings.wrapTrusted(kk, d, outCentres).toMatrix(), outCounts, outIndex, k,
        policy, charged == null ? release : charged, noise.isPrivate(), noise.description());
  }

  private static double[][] deepCopy(double[][] x) {
    double[][] y = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      y[i] = x[i].clone();
    }
    return y;
  }

  /** Builder; each setter validates at once, {@link #build()} checks the combination. */
  public static final class Builder extends KernelBuilder<Builder> {
    private Embeddings centres;
    private int[] sizes;
    private double radius = Double.NaN;
    private SecretNoiseResult secretNoise;
    private double[][] shiftProbs;
    private NoiseSource noise;
    private LedgerCharge ledger;
    private Release chargedAs;
    private boolean callerCharges;
    private String releaseId = "secpe/secret-clustering";
    private String secretSet;
    private NonPositiveCountPolicy policy = NonPositiveCountPolicy.DROP;

    Builder() {
      super(Metric.COSINE);
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * {@link Metric#COSINE} (the default; R = 1, Remark 3.3) or {@link Metric#L2} (then {@link
     * #clipRadius(double)} is required).
     */
    public Builder metric(Metric metric) {
      return setMetric(metric);
    }

    /** The public clusters: centres {@code e_k} and sizes {@code n_k} (each >= 1). */
    public Builder publicClusters(EmbeddingMatrix centres, int[] sizes) {
      return publicClusters(Embeddings.of("centres", centres), sizes);
    }

    Builder publicClusters(Embeddings centres, int[] sizes) {
      if (centres == null || sizes == null) {
        throw new IllegalArgumentException("centres and sizes must not be null");
      }
      if (centres.size() != sizes.length) {
        throw new IllegalArgumentException(
            "sizes.length must equal centres.rows, got sizes.length=" + sizes.length
                + " centres.rows=" + centres.size());
      }
      for (int c = 0; c < sizes.length; c++) {
        if (sizes[c] < 1) {
          throw new IllegalArgumentException(
              "public cluster sizes must be >= 1 (the centre noise is 2R/n_k), got sizes[" + c
                  + "]=" + sizes[c]);
        }
      }
      this.centres = centres;
      this.sizes = sizes.clone();
      return this;
    }

    /** The public clusters from a k-means run on public data (same metric expected). */
    public Builder publicClusters(KMeansResult kmeans) {
      if (kmeans == null) {
        throw new IllegalArgumentException("kmeans must not be null");
      }
      return publicClusters(kmeans.centres(), kmeans.sizes());
    }

    /** Clipping radius R under {@link Metric#L2} (finite, > 0). Not allowed under cosine. */
    public Builder clipRadius(double r) {
      if (!(r > 0) || !Double.isFinite(r)) {
        throw new IllegalArgumentException("clipRadius must be finite and > 0, got clipRadius=" + r);
      }
      this.radius = r;
      return this;
    }

    /**
     * The calibrated noise and sampling probabilities (Algorithm 1) and, for the ledger, the
     * secrets each record holds ({@code secretsOfRecord.get(i)}: indices below {@code
     * noise.secrets()}), exactly as given to {@code SecretNoise}.
     */
    public Builder secretNoise(SecretNoiseResult result, List<int[]> secretsOfRecord) {
      if (result == null || secretsOfRecord == null) {
        throw new IllegalArgumentException("result and secretsOfRecord must not be null");
      }
      if (!(result.sigma() > 0) || !Double.isFinite(result.sigma())) {
        throw new IllegalArgumentException(
            "sigma must be finite and > 0, got sigma=" + result.sigma());
      }
      double[] rho = result.rho();
      if (secretsOfRecord.size() != rho.length) {
        throw new IllegalArgumentException(
            "secretsOfRecord.size must equal the records of the SecretNoiseResult, got "
                + "secretsOfRecord.size=" + secretsOfRecord.size() + " records=" + rho.length);
      }
      for (int i = 0; i < rho.length; i++) {
        if (!(rho[i] >= 0 && rho[i] <= 1)) {
          throw new IllegalArgumentException("rho must be in [0, 1], got rho[" + i + "]=" + rho[i]);
        }
      }
      int secrets = result.secrets();
      if (secrets < 1) {
        throw new IllegalArgumentException(
            "the SecretNoiseResult must cover at least one secret, got secrets=" + secrets);
      }
      List<List<Double>> per = new ArrayList<>();
      for (int j = 0; j < secrets; j++) {
        per.add(new ArrayList<>());
      }
      for (int i = 0; i < rho.length; i++) {
        int[] held = secretsOfRecord.get(i);
        if (held == null) {
          throw new IllegalArgumentException("secretsOfRecord[" + i + "] must not be null");
        }
        for (int j : held) {
          if (j < 0 || j >= secrets) {
            throw new IllegalArgumentException(
                "secret indices must be in 0.." + (secrets - 1) + ", got secretsOfRecord[" + i
                    + "] containing " + j);
          }
          per.get(j).add(rho[i]);
        }
      }
      double[][] probs = new double[secrets][];
      for (int j = 0; j < secrets; j++) {
        probs[j] = per.get(j).stream().mapToDouble(Double::doubleValue).toArray();
      }
      this.secretNoise = result;
      this.shiftProbs = probs;
      return this;
    }

    /** Where the randomness comes from (Bernoulli sampling and Gaussian noise). */
    public Builder noise(NoiseSource noise) {
      if (noise == null) {
        throw new IllegalArgumentException("noise must not be null");
      }
      this.noise = noise;
      return this;
    }

    /** The ledger the release is charged to (before any noise is drawn). */
    public Builder ledger(PrivacyLedger ledger) {
      if (ledger == null) {
        throw new IllegalArgumentException("ledger must not be null");
      }
      this.ledger = ledger::charge;
      return this;
    }

    /** Package-private seam for tests: observe the charge. */
    Builder ledgerCharge(LedgerCharge charge) {
      this.ledger = charge;
      return this;
    }

    /**
     * The release was charged by the caller (for example through a run's release store, which
     * charges before it lets the draw happen): {@link SecretClustering#release} then draws without
     * charging, and the result names {@code release}. Its noise scale must be this clustering's
     * sigma and its sensitivity {@link #COUNT_AND_CENTRE_SHIFT} (checked by {@link #build()}); its
     * cost must cover this clustering's {@link SecretClustering#plannedRelease()} (the caller's
     * responsibility, e.g. the Gaussian of the capped mode's worst shift). Instead of {@link
     * #ledger}.
     */
    public Builder chargedAs(Release release) {
      if (release == null) {
        throw new IllegalArgumentException("chargedAs must not be null");
      }
      this.chargedAs = release;
      this.callerCharges = true;
      return this;
    }

    /**
     * The caller charges {@link SecretClustering#plannedRelease()} to its ledger before it calls
     * {@link SecretClustering#release} (for example through a run's release store, which charges
     * before it lets the draw happen): the release then draws without charging again. Instead of
     * {@link #ledger}.
     */
    public Builder chargedByCaller() {
      this.callerCharges = true;
      return this;
    }

    /** The release id on the ledger (default "secpe/secret-clustering"). */
    public Builder releaseId(String id) {
      if (id == null || id.isBlank()) {
        throw new IllegalArgumentException("releaseId must be non-blank, got releaseId=" + id);
      }
      this.releaseId = id;
      return this;
    }

    /**
     * The name of the secret set this release covers, in its cost ({@link
     * PrivacyCost.SecretMixture#secretSet()}): a digest of the secrets' keyed ids in index order,
     * so that a journal never composes it with a release over other secrets. Default: none.
     */
    public Builder secretSet(String secretSet) {
      if (secretSet == null || secretSet.isBlank()) {
        throw new IllegalArgumentException("secretSet must be non-blank, got secretSet=" + secretSet);
      }
      this.secretSet = secretSet;
      return this;
    }

    /** Policy for noisy counts {@code <= 0} (default {@link NonPositiveCountPolicy#DROP}). */
    public Builder nonPositiveCountPolicy(NonPositiveCountPolicy policy) {
      if (policy == null) {
        throw new IllegalArgumentException("nonPositiveCountPolicy must not be null");
      }
      this.policy = policy;
      return this;
    }

    /** Checks the combination and returns a single-use release. */
    public SecretClustering build() {
      if (centres == null) {
        throw new IllegalStateException("publicClusters(...) is required");
      }
      if (secretNoise == null) {
        throw new IllegalStateException("secretNoise(...) is required");
      }
      if (noise == null) {
        throw new IllegalStateException("noise(...) is required");
      }
      if (ledger == null && !callerCharges) {
        throw new IllegalStateException(
            "ledger(...), chargedAs(...) or chargedByCaller() is required: every release is charged");
      }
      if (ledger != null && callerCharges) {
        throw new IllegalStateException(
            "ledger(...) and chargedAs(...)/chargedByCaller() conflict: the release is charged once");
      }
      if (chargedAs != null
          && (chargedAs.noiseScale() != secretNoise.sigma() || chargedAs.sensitivity() != COUNT_AND_CENTRE_SHIFT)) {
        throw new IllegalStateException(
            "chargedAs must carry this clustering's noise: sigma=" + secretNoise.sigma() + " and sensitivity="
                + COUNT_AND_CENTRE_SHIFT + ", got noiseScale=" + chargedAs.noiseScale() + " sensitivity="
                + chargedAs.sensitivity());
      }
      if (metric == Metric.COSINE && !Double.isNaN(radius) && radius != 1.0) {
        throw new IllegalStateException(
            "metric=COSINE fixes R=1 (normalised embeddings, Remark 3.3), got clipRadius="
                + radius);
      }
      if (metric == Metric.L2 && Double.isNaN(radius)) {
        throw new IllegalStateException("metric=L2 requires clipRadius(R)");
      }
      double c = secretNoise.shiftMultiplier();
      if (!(c >= COUNT_AND_CENTRE_SHIFT * (1 - 1e-12))) {
        throw new IllegalStateException(
            "sigma must be calibrated for counts and centres together (shiftMultiplier >= "
                + "sqrt(2), docs/math-decisions.md §4), got shiftMultiplier=" + c);
      }
      return new SecretClustering(this);
    }
  }
}
