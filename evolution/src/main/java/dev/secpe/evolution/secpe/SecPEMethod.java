package dev.secpe.evolution.secpe;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.accounting.secret.SecretNoiseResult;
import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.SecretClustering;
import dev.secpe.clustering.SecretClusteringResult;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evolution.kernel.Kernel;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.engine.Seeds;
import dev.secpe.evolution.engine.Variation;
import dev.secpe.evolution.engine.Votes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * SecPE (Algorithm 3): secrets detected in the private records, SECRETNOISE (Algorithm 1) for the
 * sampling probabilities and sigma, one secret-clustering release per label group (Algorithm 2;
 * released once and reused every round, docs/math-decisions.md §5), then each round the representative vote
 * (lines 8-11), the top N_syn of each label, and fill-in variation.
 */
public final class SecPEMethod implements Method {

  private final SecPEOptions config;
  private final PrivacyPlan plan;
  private SecretIndex secrets;
  private SecretNoiseResult noise;
  /** Per group: noisy centres (unit rows) and their counts. */
  private EmbeddingMatrix[] centres;
  private double[][] counts;
  /**
   * Per group: the part of n_k behind each released representative that is not private data (n_k
   * itself; in the split mode, the public corpus's members).
   */
  private double[][] publicSizes;
  /** Per group: the public cluster behind each released representative. */
  private int[][] repCluster;
  private KMeansResult[] publicClusters;
  /**
   * Per group: the private rows that are sampled into the noisy shift (all, or the secret holders).
   */
  private int[][] groupRows;
  /**
   * Per group (split mode): the private rows that hold no secret, SecPE's public part; per cluster,
   * how many of its public members come from the public corpus (the rest are such records).
   */
  private int[][] freeRows;
  private int[][] corpusMembers;
  /** Per group: K as chosen (given, or from the data). */
  private int[] clustersPerGroup;
  /**
   * Per group: the clusters k-means left empty (fewer distinct embeddings than K), dropped before
   * the release.
   */
  private int[] emptyDropped;
  /** Per group: its name in the report (its label, or "(all)"). */
  private List<String> names;
  /** Groups whose clusters fell back to the public corpus (split mode: no secret-free record). */
  private final List<Integer> fellBack = new ArrayList<>();

  /** A run of {@code config} following {@code plan} ({@link SecPEPlan#of}). */
  public SecPEMethod(SecPEOptions config, PrivacyPlan plan) {
    this.config = config;
    this.plan = plan;
  }

  @Override
  public PrivacyPlan plan() {
    return plan;
  }

  @Override
  public String name() {
    return "secpe";
  }

  @Override
  public boolean needsPublicEmbeddings() {
    return !config.secretFreeAsPublic() || config.publicJoinsClusters();
  }

  @Override
  public void prepare(RunContext ctx) {
    if (plan.isPrivate()) {
      calibrate(ctx);
    }
    clusterPublic(ctx);
  }

  private void calibrate(RunContext ctx) {
    secrets = ctx.privateStore().secrets(config.detector(), ctx.settings().guard());
    if (secrets.secretCount() == 0) {
      throw config.noSecrets().apply(config.detector().name());
    }
    int releases = config.reReleasePerRound() ? ctx.settings().iterations() : 1;
    List<int[]> held = secrets.secretsOfRecord();
    // Split mode: only the records that hold a secret take part in SECRETNOISE (the paper's D_pri);
    // the others are public data and are never sampled.
    int[] takePart = config.secretFreeAsPublic()
        ? IntStream.range(0, held.size()).filter(i -> held.get(i).length > 0).toArray()
        : IntStream.range(0, held.size()).toArray();
    List<int[]> partHeld = new ArrayList<>(takePart.length);
    for (int i : takePart) {
      partHeld.add(held.get(i));
    }
    SecretNoise.Builder b =
        SecretNoise.builder()
            .records(partHeld, secrets.secretCount())
            .uniformBudget(config.budget())
            .rounds(releases)
            .shiftMultiplier(SecretClustering.COUNT_AND_CENTRE_SHIFT)
            .blowUpMethod(config.blowUpMethod());
    if (config.secretCap() > 0) {
      // Keyed by the seed, a function of each record alone (docs/math-decisions.md §9).
      long[] keys = ctx.privateStore().recordKeys(ctx.settings().seed());
      long[] partKeys = new long[takePart.length];
      for (int i = 0; i < takePart.length; i++) {
        partKeys[i] = keys[takePart[i]];
      }
      b.secretCap(config.secretCap(), partKeys);
    }
    noise = expand(b.solve(), takePart, held.size());
    double planned = SecPEPlan.cappedSigma(plan);
    if (config.secretCap() > 0 && noise.sigma() != planned) {
      throw new IllegalStateException(
          "SECRETNOISE's capped sigma " + noise.sigma() + " differs from the planned " + planned);
    }
  }


  /**
   * The public rows of each label group (all public records in each group when none carries one of
   * the run's labels), checked to hold the clusters K asks of each group; public facts only, so
   * {@code SecPE.Builder.build()} runs it before any private record is read.
   *
   * @throws IllegalArgumentException naming K, the group and its size when a group is too small
   */
  public static int[][] publicRowsByGroup(int clusters, List<Label> labels,
      List<PublicRecord> pub) {
    if (clusters == 0) {
      return publicRowsByGroup(1, labels, pub, false);
    }
    return publicRowsByGroup(clusters, labels, pub, true);
  }

  /**
   * K of one label group when the caller chose none: {@code min(ceil(N_syn / groups), base / 3)},
   * at least 1, where {@code base} is the number of records the group's clusters are built on
   * (public facts, and in the split mode the secret-free records, which are public data there): as
   * many representatives as survivors, as SecPE's paper scales K with N_syn, and at least three
   * records per cluster on average. On the bundled corpora at N_syn = 100 this is the K = 100 the
   * demo was tuned with; a bound of base / 10 (K = 83 and 59 on sotu and the e-mails) ended farther
   * from the private data (FID 0.0790 and 0.0807 against 0.0722 and 0.0722; docs/method-findings.md).
   */
  public static int autoClusters(int syntheticSize, int groups, int base) {
    int want = (int) Math.ceil(syntheticSize / (double) Math.max(1, groups));
    return Math.max(1, Math.min(want, base / 3));
  }

  /**
   * Refuses a K given by the caller that asks a label group for more clusters than it has records
   * to build them on ({@code bases[g]}), rather than lower it in silence: the caller chose K, and a
   * cluster of one record carries centre noise of 2R sigma per coordinate. The same rule in both
   * modes, on what each builds its clusters on ({@code what}): the plain mode's public set, the
   * split's public part (public facts, and the split's secret-free records, which removing the
   * records that hold a secret cannot change).
   */
  private static void requireClustersFit(int clusters, List<String> groupNames, int[] bases, String what) {
    int groups = bases.length;
    int kPerGroup = Math.max(1, (int) Math.ceil(clusters / (double) groups));
    int least = IntStream.of(bases).min().orElse(0);
    for (int g = 0; g < groups; g++) {
      if (kPerGroup > bases[g]) {
        throw new IllegalArgumentException(
            "clusters K=" + clusters + " asks for " + kPerGroup + " clusters in label group " + groupNames.get(g)
                + ", larger than " + what + " (" + bases[g] + " records); "
                + (least > 0 ? "give K <= " + (long) least * groups + (groups > 1 ? " (K is split evenly over the "
                    + groups + " label groups)" : "") + ", or " : "")
                + "leave K out to choose it per group from the data");
      }
    }
  }

  /** The name of each label group in messages and the report: its label, or "(all)". */
  private static List<String> groupNames(List<Label> labels) {
    return labels.isEmpty() ? List.of("(all)") : labels.stream().map(Object::toString).toList();
  }

  private static int[][] publicRowsByGroup(int clusters, List<Label> labels,
      List<PublicRecord> pub, boolean check) {
    int groups = Math.max(1, labels.size());
    boolean byLabel =
        !labels.isEmpty() && pub.stream().anyMatch(r -> r.label().isPresent() && labels.contains(r.label().get()));
    int[][] out = new int[groups][];
    for (int g = 0; g < groups; g++) {
      Optional<Label> label =
          labels.isEmpty() ? Optional.empty() : Optional.of(labels.get(g));
      out[g] = IntStream.range(0, pub.size())
          .filter(i -> !byLabel || pub.get(i).label().equals(label))
          .toArray();
    }
    if (check) {
      requireClustersFit(clusters, groupNames(labels), Arrays.stream(out).mapToInt(r -> r.length).toArray(),
          "its public set");
    }
    return out;
  }

  private void clusterPublic(RunContext ctx) {
    // Public clusters: one k-means per label group, on the public records of that label (all
    // public records when they carry no matching label) or, in the split mode, on the group's
    // private records that hold no secret (with the public records too when they join).
    List<PublicRecord> pub = ctx.publicData().records();
    boolean split = config.secretFreeAsPublic();
    if (pub.isEmpty() && !split) {
      throw new IllegalStateException("SecPE needs public data: its clusters are built on public text only");
    }
    int groups = ctx.groups();
    names = groupNames(ctx.labels());
    publicClusters = new KMeansResult[groups];
    groupRows = new int[groups][];
    freeRows = new int[groups][];
    corpusMembers = new int[groups][];
    clustersPerGroup = new int[groups];
    emptyDropped = new int[groups];
    int[][] pubByGroup =
        pub.isEmpty() ? new int[groups][0] : publicRowsByGroup(split ? 0 : config.clusters(), ctx.labels(), pub);
    // First what each group's clusters are built on (public facts, and in the split the records
    // holding no secret): a K the caller gave is checked against all of them before any k-means.
    int[][] corpusRows = new int[groups][];
    int[] bases = new int[groups];
    for (int g = 0; g < groups; g++) {
      int[] rows = ctx.privateRowsOf(g);
      if (split) {
        // Non-private: no secret to protect, every record is public data.
        freeRows[g] = secrets == null ? rows : IntStream.of(rows).filter(i -> secrets.secretsOf(i).length == 0).toArray();
        groupRows[g] = secrets == null ? new int[0] : IntStream.of(rows).filter(i -> secrets.secretsOf(i).length > 0).toArray();
      } else {
        freeRows[g] = new int[0];
        groupRows[g] = rows;
      }
      boolean corpusJoins = !split || config.publicJoinsClusters() || freeRows[g].length == 0;
      if (split && freeRows[g].length == 0) {
        fellBack.add(g);
      }
      corpusRows[g] = corpusJoins ? pubByGroup[g] : new int[0];
      bases[g] = freeRows[g].length + corpusRows[g].length;
      if (bases[g] == 0) {
        throw new IllegalArgumentException(
            "label group " + names.get(g) + (split
                ? " has no private record without a secret and no public record to build its clusters on;"
                    + " give public records of that label (publicData / --public)"
                : " has no public record to build its clusters on; give public records of that label"
                    + " (publicData / --public)"));
      }
    }
    if (config.clusters() > 0 && split) {
      // The plain mode's public set was checked when the run was built.
      requireClustersFit(config.clusters(), names, bases,
          config.publicJoinsClusters() ? "its public part (the public records of its label and its private records"
              + " without a detected secret)" : "its public part (its private records without a detected secret,"
              + " or the public records of its label where it has none)");
    }
    // The public embeddings only where the public corpus forms or joins a group's clusters (the
    // split mode without --public-joins-clusters never embeds it).
    Supplier<EmbeddingMatrix> pubUnit = ctx::publicUnit;
    EmbeddingMatrix privUnit = split ? ctx.privateUnit() : null;
    int total = ctx.settings().syntheticSize();
    for (int g = 0; g < groups; g++) {
      List<EmbeddingMatrix> parts = new ArrayList<>();
      if (freeRows[g].length > 0) {
        parts.add(privUnit.selectRows(freeRows[g]));
      }
      if (corpusRows[g].length > 0) {
        parts.add(pubUnit.get().selectRows(corpusRows[g]));
      }
      EmbeddingMatrix base = parts.size() == 1 ? parts.get(0) : EmbeddingMatrix.concat(parts);
      int k = config.clusters() > 0
          ? Math.max(1, (int) Math.ceil(config.clusters() / (double) groups))
          : autoClusters(total, groups, base.rows());
      clustersPerGroup[g] = k;
      KMeansResult fitted =
          KMeans.builder()
              .k(k)
              .metric(Metric.COSINE)
              .seed(Seeds.derive(ctx.settings().seed(), "kmeans", g))
              .restarts(config.kmeansRestarts())
              .build()
              .fit(base);
      // With fewer distinct embeddings than K (repeated texts, or texts the embedder maps to one
      // vector) some clusters hold no record: an empty cluster has no centre and its centre noise
      // 2R/n_k no scale, so it is dropped before the release (public data only; the release's
      // noise and cost do not depend on K).
      emptyDropped[g] = fitted.emptyClusters();
      publicClusters[g] = fitted.withoutEmptyClusters();
      int kept = publicClusters[g].k();
      corpusMembers[g] = new int[kept];
      int free = freeRows[g].length;
      int[] assigned = publicClusters[g].assignments();
      for (int i = free; i < assigned.length; i++) {
        corpusMembers[g][assigned[i]]++;
      }
    }
    centres = new EmbeddingMatrix[groups];
    counts = new double[groups][];
    publicSizes = new double[groups][];
    repCluster = new int[groups][];
    releaseRepresentatives(ctx, 0);
    // Each group's private mass: the released counts less the public sizes they include (the
    // counts n~_k = n_k + m_k + noise carry the public cluster sizes, which would pull the label
    // mix towards the public one).
    double[] mass = new double[groups];
    for (int g = 0; g < groups; g++) {
      for (double m : privateMass(g)) {
        mass[g] += Math.max(0, m);
      }
    }
    // Label shares are post-processing of the noisy counts (no extra release).
    if (!ctx.labels().isEmpty()) {
      if (ctx.settings().labels().orElseThrow() instanceof LabelSet.DeclaredPublic) {
        ctx.setShares(ctx.publicProportions());
      } else {
        ctx.setShares(mass);
      }
    }
  }

  /** The secret-clustering releases of one round (round 0, or every round when re-releasing). */
  private void releaseRepresentatives(RunContext ctx, int round) {
    int d = ctx.embedder().dimension();
    for (int g = 0; g < ctx.groups(); g++) {
      final int gg = g;
      String id = SecPEPlan.clustering(!ctx.labels().isEmpty(), g, config.reReleasePerRound(), round);
      Representatives r;
      if (!plan.isPrivate()) {
        r = ctx.store().release(id, Representatives.CODEC, () -> exactRepresentatives(ctx, gg));
      } else if (plan.step(id).orElseThrow() instanceof PrivacyPlan.Covered c) {
        // Capped mode: this group's release is part of the first group's charge.
        r = ctx.store().releaseCovered(id, Representatives.CODEC,
            () -> drawRepresentatives(ctx, gg, id, ctx.ledger().releases().stream()
                .filter(x -> x.id().equals(c.coveringId())).findFirst().orElseThrow()));
      } else if (config.secretCap() > 0) {
        r = ctx.store().release(id, Representatives.CODEC, () -> drawRepresentatives(ctx, gg, id, plan.calibrated(id)));
      } else {
        // Paper mode: SECRETNOISE solved sigma from the data; the release is the group's mixture.
        SecretClustering[] sc = new SecretClustering[1];
        r = ctx.store().releaseSolved(
            id,
            () -> (sc[0] = clustering(ctx, gg, id, null)).plannedRelease(),
            Representatives.CODEC,
            () -> draw(ctx, gg, sc[0]));
      }
      int kept = r.kept();
      counts[g] = r.counts();
      int[] sizes = publicClusters[g].sizes();
      publicSizes[g] = new double[kept];
      repCluster[g] = new int[kept];
      for (int k = 0; k < kept; k++) {
        int cluster = r.clusterIndex()[k];
        // What the count carries that is not the private data's: the public corpus's members (the
        // split mode's secret-free records are private data, public under this guarantee).
        publicSizes[g][k] = config.secretFreeAsPublic() ? corpusMembers[g][cluster] : sizes[cluster];
        repCluster[g][k] = cluster;
      }
      float[][] c = r.centres();
      if (plan.isPrivate() && kept > 0) {
        weighCentreNoise(g, c, r.clusterIndex());
      }
      centres[g] =
          kept == 0
              ? EmbeddingMatrix.empty(d)
              : EmbeddingMatrix.of(c).normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO);
    }
  }

  /**
   * Group g's secret clustering with SECRETNOISE's sampling probabilities and sigma, charged by the
   * caller (through the run's release store): as {@code chargedAs} (the capped mode's planned
   * release) or, when null, as its own {@link SecretClustering#plannedRelease()}.
   */
  private SecretClustering clustering(RunContext ctx, int g, String id, Release chargedAs) {
    int[] rows = groupRows[g];
    List<int[]> subSecrets = new ArrayList<>(rows.length);
    for (int i : rows) {
      subSecrets.add(secrets.secretsOf(i));
    }
    SecretClustering.Builder b =
        SecretClustering.builder()
            .metric(Metric.COSINE)
            .publicClusters(publicClusters[g])
            .secretNoise(restrict(noise, rows), subSecrets)
            .noise(ctx.noiseFor(id))
            .releaseId(id)
            .nonPositiveCountPolicy(config.nonPositiveCountPolicy());
    // The release names its secrets (their keyed ids' digest), so that the journal never composes
    // it with a run over other secrets as if secret j were the same in both.
    return (chargedAs == null ? b.chargedByCaller().secretSet(secrets.digest()) : b.chargedAs(chargedAs)).build();
  }

  private Representatives drawRepresentatives(RunContext ctx, int g, String id, Release chargedAs) {
    return draw(ctx, g, clustering(ctx, g, id, chargedAs));
  }

  /**
   * Draws group g's release: the sampling, the exact aggregate of the sampled records, the noise.
   */
  private Representatives draw(RunContext ctx, int g, SecretClustering sc) {
    int[] rows = groupRows[g];
    SecretClusteringResult r =
        sc.release(sampled -> ctx.privateStore().clusterAggregate(globalRows(rows, sampled), publicClusters[g].centres()));
    float[][] c = new float[r.counts().length][];
    for (int k = 0; k < c.length; k++) {
      c[k] = r.centres().row(k);
    }
    return new Representatives(r.counts(), r.clusterIndex(), c);
  }

  /** The record indices of a group's sampled rows (group-local, ascending) in the whole store. */
  private static int[] globalRows(int[] rows, int[] sampled) {
    int[] out = new int[sampled.length];
    for (int i = 0; i < sampled.length; i++) {
      out[i] = rows[sampled[i]];
    }
    return out;
  }

  /**
   * Weighs the noise of group g's released centres against the centres (for the report's warning)
   * and, with {@code shrinkRepresentatives}, pulls them back towards their public centres ({@link
   * RepresentativeShrinkage}); post-processing with public inputs only. The noise scale is the one
   * eq. (7) used: {@code (R + max(R, |e_k|)) / n_k * sigma} with R = 1 under cosine.
   */
  private void weighCentreNoise(int g, float[][] c, int[] clusterIndex) {
    int kept = clusterIndex.length;
    float[][] pub = new float[kept][];
    double[] sd = new double[kept];
    EmbeddingMatrix all = publicClusters[g].centres();
    int[] sizes = publicClusters[g].sizes();
    for (int k = 0; k < kept; k++) {
      int cluster = clusterIndex[k];
      pub[k] = all.row(cluster);
      double norm = 0;
      for (float v : pub[k]) {
        norm += (double) v * v;
      }
      sd[k] = (1.0 + Math.max(1.0, Math.sqrt(norm))) / sizes[cluster] * noise.sigma();
      centreNoiseToSignal.add(c[k].length * sd[k] * sd[k] / Math.max(norm, Double.MIN_NORMAL));
    }
    if (config.shrinkRepresentatives()) {
      RepresentativeShrinkage.apply(c, pub, sd);
    }
  }

  /** d (c_k sigma)^2 / |e_k|^2 of every released representative: public quantities only. */
  private final List<Double> centreNoiseToSignal = new ArrayList<>();

  @Override
  public List<String> warnings(RunContext ctx) {
    if (centreNoiseToSignal.isEmpty()) {
      return List.of();
    }
    double median = centreNoiseToSignal.stream().mapToDouble(Double::doubleValue).sorted()
        .skip(centreNoiseToSignal.size() / 2).findFirst().orElseThrow();
    if (!(median > 1)) {
      return List.of();
    }
    return List.of(String.format(Locale.ROOT,
        "The centre noise of SecPE's representatives has %.3g times the power of the centres"
            + " themselves (median over representatives; d (c_k sigma)^2 / |e_k|^2 with c_k = 2R/n_k):"
            + " the released centres point in nearly random directions%s. Fewer clusters (K) put more"
            + " public records in each and cut the centre noise; the noisy counts still steer the"
            + " survivors.",
        median,
        config.shrinkRepresentatives()
            ? ", so each falls back towards its public centre (shrinkRepresentatives)"
            : ", and shrinkRepresentatives(false) uses them as they are"));
  }

  /**
   * The non-private baseline: every private record of group g joins its nearest public centre, no
   * clipping beyond normalisation, no noise.
   */
  private Representatives exactRepresentatives(RunContext ctx, int g) {
    KMeansResult pc = publicClusters[g];
    EmbeddingMatrix pubCentres = EmbeddingMatrix.of(pc.centres().toArray());
    int k = pubCentres.rows();
    int d = pubCentres.dimension();
    // Every record of the group, normalised and assigned to its nearest public centre: the same
    // aggregate (integer counts, exact sums) a private release uses, without sampling or noise.
    ClusterAggregate agg =
        ctx.privateStore().clusterAggregate(groupRows[g], pc.centres());
    double[] exactSums = agg.sums();
    int[] sizes = pc.sizes();
    double[] counts = new double[k];
    int[] index = new int[k];
    float[][] centres = new float[k][d];
    for (int c = 0; c < k; c++) {
      double count = sizes[c] + agg.count(c);
      float[] e = pubCentres.row(c);
      counts[c] = count;
      index[c] = c;
      for (int j = 0; j < d; j++) {
        double sum = sizes[c] * (double) e[j] + exactSums[c * d + j];
        centres[c][j] = (float) (count > 0 ? sum / count : 0.0);
      }
    }
    agg.clear();
    return new Representatives(counts, index, centres);
  }

  /** The SECRETNOISE result restricted to some records (sigma and per-secret values unchanged). */
  private static SecretNoiseResult restrict(SecretNoiseResult r, int[] rows) {
    double[] w = r.weights();
    double[] rho = r.rho();
    double[] sw = new double[rows.length];
    double[] srho = new double[rows.length];
    double expected = 0;
    for (int i = 0; i < rows.length; i++) {
      sw[i] = w[rows[i]];
      srho[i] = rho[rows[i]];
      expected += srho[i];
    }
    return new SecretNoiseResult(
        r.sigma(), r.sigmaPerSecret(), sw, srho, expected, r.rounds(), r.shiftMultiplier(), r.secretCap());
  }

  /**
   * {@code r} over the records {@code rows} of {@code n}, as a result over all n (the others never
   * sampled).
   */
  private static SecretNoiseResult expand(SecretNoiseResult r, int[] rows, int n) {
    if (rows.length == n) {
      return r;
    }
    double[] w = new double[n];
    double[] rho = new double[n];
    for (int i = 0; i < rows.length; i++) {
      w[rows[i]] = r.weights()[i];
      rho[rows[i]] = r.rho()[i];
    }
    return new SecretNoiseResult(
        r.sigma(), r.sigmaPerSecret(), w, rho, r.expectedSampled(), r.rounds(), r.shiftMultiplier(), r.secretCap());
  }

  @Override
  public double[] vote(RunContext ctx, int round, List<SyntheticText> population, EmbeddingMatrix unit) {
    if (config.reReleasePerRound() && round > 0) {
      releaseRepresentatives(ctx, round);
    }
    if (config.secretFreeVotes()) {
      return recordVotes(ctx, population, unit);
    }
    double[] histogram = new double[population.size()];
    for (int g = 0; g < ctx.groups(); g++) {
      int[] cand = RunContext.rowsOf(ctx, population, g);
      if (cand.length == 0 || centres[g].rows() == 0) {
        continue;
      }
      int[] all = IntStream.range(0, centres[g].rows()).toArray();
      int[] nearest = Kernel.top1(centres[g], all, unit, cand, ctx.voteCentre(unit, cand));
      double[] h = Votes.representative(nearest, counts[g], population.size());
      for (int c : cand) {
        histogram[c] += h[c];
      }
    }
    return histogram;
  }

  /**
   * {@code secretFreeVotes}: every secret-free record votes for its nearest candidate of its label
   * (exact counts: public data under this guarantee), and every representative's estimated private
   * mass {@code max(0, n~_k - n_k)}, the noisy count of the secret-holding records it gathered, is
   * spread over the candidates the secret-free records of its cluster voted for, in proportion to
   * their votes (to the candidate nearest its centre when no such record voted: a cluster of the
   * public corpus). The holders are counted where records like them, their cluster's, vote, not at
   * the cluster's centre, whose nearest candidates are the blandest. Post-processing of the release
   * and of public data only.
   */
  private double[] recordVotes(RunContext ctx, List<SyntheticText> population, EmbeddingMatrix unit) {
    double[] histogram = new double[population.size()];
    EmbeddingMatrix privUnit = ctx.privateUnit();
    for (int g = 0; g < ctx.groups(); g++) {
      int[] cand = RunContext.rowsOf(ctx, population, g);
      if (cand.length == 0) {
        continue;
      }
      float[] centre = ctx.voteCentre(unit, cand);
      int[] position = new int[population.size()];
      for (int j = 0; j < cand.length; j++) {
        position[cand[j]] = j;
      }
      int free = freeRows[g].length;
      int[] recordVote = new int[free];
      int[] recordCluster = new int[free];
      if (free > 0) {
        int[] near = Kernel.top1(privUnit, freeRows[g], unit, cand, centre);
        // The group's k-means ran on its secret-free rows first, in freeRows order.
        int[] assigned = publicClusters[g].assignments();
        for (int i = 0; i < free; i++) {
          recordVote[i] = position[near[i]];
          recordCluster[i] = assigned[i];
        }
      }
      int reps = centres[g].rows();
      double[] repCount = new double[reps];
      int[] repNearest = new int[reps];
      if (reps > 0) {
        int[] nearest = Kernel.top1(centres[g], IntStream.range(0, reps).toArray(), unit, cand, centre);
        int[] sizes = publicClusters[g].sizes();
        for (int q = 0; q < reps; q++) {
          repCount[q] = counts[g][q] - sizes[repCluster[g][q]];
          repNearest[q] = position[nearest[q]];
        }
      }
      double[] h = SecretFreeVotes.histogram(
          cand.length, recordVote, recordCluster, publicClusters[g].k(), repCluster[g], repCount, repNearest);
      for (int j = 0; j < cand.length; j++) {
        histogram[cand[j]] += h[j];
      }
    }
    return histogram;
  }

  @Override
  public int[] select(
      RunContext ctx, int round, double[] votes, List<SyntheticText> population, EmbeddingMatrix unit) {
    if (config.secretFreeVotes()) {
      // Rank selection, as Aug-PE's default: the top of each label's histogram.
      return ctx.topPerLabel(votes, population);
    }
    if (config.paperTopN()) {
      return ctx.topPerLabel(votes, population);
    }
    return ctx.selectPerGroup(
        population,
        (g, cand, share) ->
            centres[g].rows() == 0
                // Every representative was dropped: no private signal for this group.
                ? Arrays.copyOf(cand, Math.min(share, cand.length))
                : RepresentativeAllocation.select(
                    centres[g], privateMass(g), unit, cand, share,
                    ctx.voteCentre(unit, cand)));
  }

  /**
   * The estimated private mass of each representative, {@code n~_k - n_k}: the released count less
   * the public size it was built from (post-processing; the public size is public).
   */
  private double[] privateMass(int g) {
    double[] m = new double[counts[g].length];
    for (int k = 0; k < m.length; k++) {
      m[k] = counts[g][k] - publicSizes[g][k];
    }
    return m;
  }

  @Override
  public List<Offspring> vary(
      RunContext ctx, int round, List<SyntheticText> survivors, SplittableRandom rng) {
    return Variation.fillIn(ctx, survivors, ctx.settings().variations(), rng);
  }

  @Override
  public double reportDelta() {
    return config.delta();
  }

  @Override
  public double reportPrior() {
    SecretBudget b = config.budget();
    if (b == null) {
      throw new IllegalStateException(name() + ": a non-private run states no prior");
    }
    return b.p();
  }

  @Override
  public void report(PrivacyReport.Builder report) {
    if (config.budget() != null) {
      report.sigma(sigma()).secretBudget(config.budget());
    }
  }

  /**
   * What the split mode and the clusters' K mean for this run, in words (public facts, and facts
   * that the records holding a secret cannot change: which records hold none is unchanged when the
   * records holding one secret are removed).
   */
  private List<String> splitNotes() {
    List<String> out = new ArrayList<>();
    if (config.secretFreeAsPublic()) {
      out.add(
          "The paper's dataset split (secretFreeAsPublic): the private records in which the detector"
              + " found no secret were used without noise as SecPE's public part (the D_pub of"
              + " Algorithms 2 and 3): clustered with k-means and counted exactly"
              + (config.publicJoinsClusters() ? ", beside the public corpus" : "")
              + "; only the records holding a secret were sampled into the noisy shift. The"
              + " guarantee covers the named secrets only, not membership: a record without a"
              + " detected secret is released as public data would be, and a secret the detector"
              + " misses is released without noise.");
      if (!fellBack.isEmpty()) {
        out.add(
            fellBack.size() + " label group(s) had no private record without a secret; their"
                + " clusters were built on the public corpus instead.");
      }
      if (config.secretFreeVotes()) {
        out.add(
            "Secret-free votes (secretFreeVotes, not in the paper): every round each secret-free record"
                + " voted for its nearest candidate, exactly, and each representative's noisy count of"
                + " secret-holding records, max(0, n~_k - n_k), was spread over the candidates its"
                + " cluster's secret-free records voted for; the top of each label's histogram survived"
                + " (rank selection, as Aug-PE's).");
      }
    }
    if (config.clusters() == 0 && clustersPerGroup != null) {
      out.add(
          "K was chosen from the data: " + Arrays.toString(clustersPerGroup) + " clusters per label"
              + " group, min(ceil(N_syn / groups), base / 3) with base the records each group's"
              + " clusters were built on.");
    }
    if (emptyDropped != null && IntStream.of(emptyDropped).sum() > 0) {
      out.add(droppedNote());
    }
    return out;
  }

  /** What dropping the empty clusters did, per label group (public facts only). */
  private String droppedNote() {
    List<String> where = new ArrayList<>();
    int[] kept = new int[emptyDropped.length];
    for (int g = 0; g < emptyDropped.length; g++) {
      kept[g] = clustersPerGroup[g] - emptyDropped[g];
      if (emptyDropped[g] > 0) {
        where.add("label group " + names.get(g) + ": " + clustersPerGroup[g] + " clusters, " + emptyDropped[g]
            + " of them empty");
      }
    }
    return "k-means could not give every cluster a record, the records behind them holding fewer distinct"
        + " embeddings than K (repeated texts, or texts the embedder maps to one vector): " + String.join("; ", where)
        + ". The empty clusters were dropped before the release (an empty cluster has no centre, and its centre"
        + " noise 2R/n_k no scale): " + Arrays.toString(kept) + " clusters per label group were released. The"
        + " clusters are built on public data only, so the release's noise and cost are unchanged.";
  }

  /** sigma of the release(s). */
  public double sigma() {
    return noise == null ? Double.NaN : noise.sigma();
  }


  @Override
  public List<String> deviations(RunContext ctx) {
    // only for private runs: the runner does not ask a non-private run for deviations
    List<String> out = new ArrayList<>();
    out.add(
        "Secret clustering releases counts and centres: the calibration uses the joint normalised"
            + " shift sqrt(2)*S_j (docs/math-decisions.md §4); the paper's Theorem 1 calibrates as if it were S_j.");
    if (config.secretCap() > 0) {
      out.add(
          "Contribution-bounded calibration (secretCap K=" + config.secretCap() + ", docs/math-decisions.md §9):"
              + " no LP; at most K records of any one secret are sampled (chosen by a keyed hash of each"
              + " record; records holding two or more secrets are not sampled, records holding none"
              + " always are), so sigma is the least with which a shift of sqrt(2)*K meets (p, r) and"
              + " depends on (p, r, K) alone.");
    } else {
      out.add(
          "SECRETNOISE maximises sum_i w_i (the paper's objective max w_i is a typo) and samples with"
              + " rho_i = w_i / max_k w_k; sigma is the least with B_j(p_j) <= r_j for the exact"
              + " Poisson-binomial mixture (" + config.blowUpMethod() + "), not the paper's single-Gaussian"
              + " approximation.");
      out.add(
          "rho and sigma are computed from which private records hold which secret (as in the paper,"
              + " whose proof treats them as given): removing a secret can change sigma, which this"
              + " report states without noise. secretCap(K) / --secret-cap K makes sigma depend on"
              + " (p, r, K) alone (docs/math-decisions.md §9).");
    }
    out.add(
        config.reReleasePerRound()
            ? "The representatives are re-released every round (T = " + ctx.settings().iterations() + " releases)."
            : "The representatives are released once and reused every round (docs/math-decisions.md §5): the cost does not grow with T.");
    // How many secrets were found and how many records are expected in the sample are statistics
    // of the private data, released without noise: they stay out of the (shareable) report.
    if (config.shrinkRepresentatives()) {
      out.add(
          "The released centres are pulled back towards their public centres by the factor"
              + " |e_k|^2 / (|e_k|^2 + d (c_k sigma)^2) before use (post-processing with public"
              + " inputs; the paper uses the noisy centres as they are).");
    }
    out.add("Secrets were detected by '" + config.detector().name() + "'.");
    out.addAll(splitNotes());
    return out;
  }
}
