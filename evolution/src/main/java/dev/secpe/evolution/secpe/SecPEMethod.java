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
import dev.secpe.core.LabelSet;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evolution.ClusterVotes;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.Offspring;
import dev.secpe.evolution.engine.RunContext;
import dev.secpe.evolution.engine.Seeds;
import dev.secpe.evolution.engine.Variation;
import dev.secpe.evolution.engine.Votes;
import dev.secpe.evolution.kernel.Kernel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * SecPE (Algorithm 3): secrets detected in the private records, SECRETNOISE (Algorithm 1) for the
 * sampling probabilities and sigma, one secret-clustering release per label group (Algorithm 2;
 * released once and reused every round, docs/math-decisions.md §5), then each round the
 * representative vote (lines 8-11), the top N_syn of each label, and fill-in variation.
 *
 * <p>One {@link LabelGroup} per label carries a group through the run: {@link #prepare} splits its
 * records (which are sampled into the noisy shift, which are its public part), builds its clusters
 * on public data and draws its release; {@link #vote} and {@link #select} read that release.
 */
public final class SecPEMethod implements Method {

  private final SecPEOptions config;
  private final PrivacyPlan plan;
  private SecretIndex secrets;
  private SecretNoiseResult noise;
  private List<LabelGroup> groups;
  /** d (c_k sigma)^2 / |e_k|^2 of every released representative: public quantities only. */
  private final List<Double> centreNoiseToSignal = new ArrayList<>();

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

  // ------------------------------------------------------------------------ prepare: once a run

  @Override
  public void prepare(RunContext ctx) {
    if (plan.isPrivate()) {
      calibrate(ctx);
    }
    groups = splitGroups(ctx);
    for (LabelGroup g : groups) {
      g.cluster(cluster(ctx, g));
    }
    releaseRepresentatives(ctx, 0);
    // Label shares are post-processing of the noisy counts (no extra release): each group's private
    // mass, the released counts less the public sizes they include (the counts n~_k = n_k + m_k +
    // noise carry the public cluster sizes, which would pull the label mix towards the public one).
    if (!ctx.labels().isEmpty()) {
      if (ctx.settings().labels().orElseThrow() instanceof LabelSet.DeclaredPublic) {
        ctx.setShares(ctx.publicProportions());
      } else {
        double[] mass = new double[groups.size()];
        for (LabelGroup g : groups) {
          for (double m : g.release().privateMass()) {
            mass[g.index] += Math.max(0, m);
          }
        }
        ctx.setShares(mass);
      }
    }
  }

  /** SECRETNOISE (Algorithm 1): the secrets each record holds, rho and sigma. */
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
    noise = SecretNoiseRows.expand(b.solve(), takePart, held.size());
    double planned = SecPEPlan.cappedSigma(plan);
    if (config.secretCap() > 0 && noise.sigma() != planned) {
      throw new IllegalStateException(
          "SECRETNOISE's capped sigma " + noise.sigma() + " differs from the planned " + planned);
    }
  }

  /**
   * Each label group's rows: which private records are sampled into the noisy shift and, in the
   * split, which hold no secret (SecPE's public part), and which public records its clusters are
   * built on. A K the caller gave is checked against all of them before any k-means.
   */
  private List<LabelGroup> splitGroups(RunContext ctx) {
    List<PublicRecord> pub = ctx.publicData().records();
    boolean split = config.secretFreeAsPublic();
    if (pub.isEmpty() && !split) {
      throw new IllegalStateException("SecPE needs public data: its clusters are built on public text only");
    }
    int count = ctx.groups();
    List<String> names = ClustersPerGroup.groupNames(ctx.labels());
    int[][] pubByGroup = pub.isEmpty()
        ? new int[count][0]
        : ClustersPerGroup.publicRowsByGroup(split ? 0 : config.clusters(), ctx.labels(), pub);
    List<LabelGroup> out = new ArrayList<>(count);
    for (int g = 0; g < count; g++) {
      int[] rows = ctx.privateRowsOf(g);
      int[] shift = rows;
      int[] free = new int[0];
      if (split) {
        // Non-private: no secret to protect, every record is public data.
        free = secrets == null ? rows : IntStream.of(rows).filter(i -> secrets.secretsOf(i).length == 0).toArray();
        shift = secrets == null ? new int[0] : IntStream.of(rows).filter(i -> secrets.secretsOf(i).length > 0).toArray();
      }
      boolean corpusJoins = !split || config.publicJoinsClusters() || free.length == 0;
      LabelGroup group = new LabelGroup(g, names.get(g), shift, free, corpusJoins ? pubByGroup[g] : new int[0]);
      if (group.base() == 0) {
        throw new IllegalArgumentException(
            "label group " + group.name + (split
                ? " has no private record without a secret and no public record to build its clusters on;"
                    + " give public records of that label (publicData / --public)"
                : " has no public record to build its clusters on; give public records of that label"
                    + " (publicData / --public)"));
      }
      out.add(group);
    }
    if (config.clusters() > 0 && split) {
      // The plain mode's public set was checked when the run was built.
      ClustersPerGroup.requireFits(config.clusters(), names, out.stream().mapToInt(LabelGroup::base).toArray(),
          config.publicJoinsClusters() ? "its public part (the public records of its label and its private records"
              + " without a detected secret)" : "its public part (its private records without a detected secret,"
              + " or the public records of its label where it has none)");
    }
    return out;
  }

  /**
   * One k-means per label group, on its public part: the public records of its label (all public
   * records when they carry no matching label) or, in the split mode, its private records that hold
   * no secret (with the public records too when they join, or instead where there are none), on
   * whatever store holds them ({@link SplitKMeans}). With fewer distinct embeddings than K
   * (repeated texts, or texts the embedder maps to one vector) some clusters hold no record: an
   * empty cluster has no centre and its centre noise 2R/n_k no scale, so it is dropped before the
   * release (public data only; the release's noise and cost do not depend on K).
   */
  private LabelGroup.Clusters cluster(RunContext ctx, LabelGroup g) {
    // The public embeddings only where the public corpus forms or joins a group's clusters (the
    // split mode without --public-joins-clusters never embeds it).
    EmbeddingMatrix corpus = g.corpusRows.length == 0
        ? EmbeddingMatrix.empty(ctx.embedder().dimension())
        : ctx.publicUnit().selectRows(g.corpusRows);
    int k = ClustersPerGroup.of(config.clusters(), ctx.settings().syntheticSize(), ctx.groups(), g.base());
    long seed = Seeds.derive(ctx.settings().seed(), "kmeans", g.index);
    if (config.secretFreeAsPublic()) {
      LabelGroup.Clusters c = SplitKMeans.fit(ctx.privateStore(), g.secretFree, corpus, k,
          Seeds.random(ctx.settings().seed(), "kmeans-sample", g.index), seed, config.kmeansRestarts());
      // Each secret-free record's cluster, once: every round's votes are counted by cluster.
      return config.secretFreeVotes() && g.secretFree.length > 0
          ? c.withSecretFreeClusters(ctx.privateStore().secretFreeNearest(g.secretFree, c.centres()))
          : c;
    }
    KMeansResult fitted =
        KMeans.builder().k(k).metric(Metric.COSINE).seed(seed).restarts(config.kmeansRestarts()).build().fit(corpus);
    KMeansResult kept = fitted.withoutEmptyClusters();
    if (config.publicGuided()) {
      g.corpusClusters(kept.assignments());
    }
    return new LabelGroup.Clusters(kept.centres(), kept.sizes(), kept.sizes(), k, fitted.emptyClusters(), new int[0]);
  }

  // ------------------------------------------------------------------------ the release

  /** The secret-clustering releases of one round (round 0, or every round when re-releasing). */
  private void releaseRepresentatives(RunContext ctx, int round) {
    int d = ctx.embedder().dimension();
    for (LabelGroup g : groups) {
      String id = SecPEPlan.clustering(!ctx.labels().isEmpty(), g.index, config.reReleasePerRound(), round);
      Representatives r;
      if (!plan.isPrivate()) {
        r = ctx.store().release(id, Representatives.CODEC, () -> exactRepresentatives(ctx, g));
      } else if (plan.step(id).orElseThrow() instanceof PrivacyPlan.Covered c) {
        // Capped mode: this group's release is part of the first group's charge.
        r = ctx.store().releaseCovered(id, Representatives.CODEC,
            () -> draw(ctx, g, clustering(ctx, g, id, ctx.ledger().releases().stream()
                .filter(x -> x.id().equals(c.coveringId())).findFirst().orElseThrow())));
      } else if (config.secretCap() > 0) {
        r = ctx.store().release(id, Representatives.CODEC, () -> draw(ctx, g, clustering(ctx, g, id, plan.calibrated(id))));
      } else {
        // Paper mode: SECRETNOISE solved sigma from the data; the release is the group's mixture.
        SecretClustering[] sc = new SecretClustering[1];
        r = ctx.store().releaseSolved(
            id,
            () -> (sc[0] = clustering(ctx, g, id, null)).plannedRelease(),
            Representatives.CODEC,
            () -> draw(ctx, g, sc[0]));
      }
      g.release(use(g, r, d));
    }
  }

  /**
   * A release as the votes use it: what each count carries that is not private data, and the
   * centres as unit rows (weighed against their noise, and shrunk where asked).
   */
  private LabelGroup.Release use(LabelGroup g, Representatives r, int d) {
    int kept = r.kept();
    double[] publicSizes = new double[kept];
    for (int k = 0; k < kept; k++) {
      // What the count carries that is not the private data's: the public corpus's members (the
      // split mode's secret-free records are private data, public under this guarantee).
      publicSizes[k] = g.clusters().corpusMembers()[r.clusterIndex()[k]];
    }
    float[][] c = r.centres();
    if (plan.isPrivate() && kept > 0) {
      weighCentreNoise(g.clusters(), c, r.clusterIndex());
    }
    EmbeddingMatrix centres = kept == 0
        ? EmbeddingMatrix.empty(d)
        : EmbeddingMatrix.of(c).normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO);
    return new LabelGroup.Release(centres, r.counts(), publicSizes, r.clusterIndex().clone());
  }

  /**
   * Group g's secret clustering with SECRETNOISE's sampling probabilities and sigma, charged by the
   * caller (through the run's release store): as {@code chargedAs} (the capped mode's planned
   * release) or, when null, as its own {@link SecretClustering#plannedRelease()}.
   */
  private SecretClustering clustering(RunContext ctx, LabelGroup g, String id, Release chargedAs) {
    List<int[]> subSecrets = new ArrayList<>(g.shiftRows.length);
    for (int i : g.shiftRows) {
      subSecrets.add(secrets.secretsOf(i));
    }
    SecretClustering.Builder b =
        SecretClustering.builder()
            .metric(Metric.COSINE)
            .publicClusters(g.clusters().centres(), g.clusters().sizes())
            .secretNoise(SecretNoiseRows.restrict(noise, g.shiftRows), subSecrets)
            .noise(ctx.noiseFor(id))
            .releaseId(id)
            .nonPositiveCountPolicy(config.nonPositiveCountPolicy());
    // The release names its secrets (their keyed ids' digest), so that the journal never composes
    // it with a run over other secrets as if secret j were the same in both.
    return (chargedAs == null ? b.chargedByCaller().secretSet(secrets.digest()) : b.chargedAs(chargedAs)).build();
  }

  /**
   * Draws group g's release: the sampling, the exact aggregate of the sampled records, the noise.
   */
  private Representatives draw(RunContext ctx, LabelGroup g, SecretClustering sc) {
    int[] rows = g.shiftRows;
    SecretClusteringResult r = sc.release(sampled ->
        ctx.privateStore().clusterAggregate(globalRows(rows, sampled), g.clusters().centres()));
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
   * The non-private baseline: every private record of group g joins its nearest public centre, no
   * clipping beyond normalisation, no noise.
   */
  private Representatives exactRepresentatives(RunContext ctx, LabelGroup g) {
    LabelGroup.Clusters pc = g.clusters();
    EmbeddingMatrix pubCentres = EmbeddingMatrix.of(pc.centres().toArray());
    int k = pubCentres.rows();
    int d = pubCentres.dimension();
    // Every record of the group, normalised and assigned to its nearest public centre: the same
    // aggregate (integer counts, exact sums) a private release uses, without sampling or noise.
    ClusterAggregate agg = ctx.privateStore().clusterAggregate(g.shiftRows, pc.centres());
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

  /**
   * Weighs the noise of a group's released centres against the centres (for the report's warning)
   * and, with {@code shrinkRepresentatives}, pulls them back towards their public centres ({@link
   * RepresentativeShrinkage}); post-processing with public inputs only. The noise scale is the one
   * eq. (7) used: {@code (R + max(R, |e_k|)) / n_k * sigma} with R = 1 under cosine.
   */
  private void weighCentreNoise(LabelGroup.Clusters clusters, float[][] c, int[] clusterIndex) {
    int kept = clusterIndex.length;
    float[][] pub = new float[kept][];
    double[] sd = new double[kept];
    EmbeddingMatrix all = clusters.centres();
    int[] sizes = clusters.sizes();
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

  // ------------------------------------------------------------------------ each round

  @Override
  public double[] vote(RunContext ctx, int round, List<SyntheticText> population, EmbeddingMatrix unit) {
    if (config.reReleasePerRound() && round > 0) {
      releaseRepresentatives(ctx, round);
    }
    double[] histogram = new double[population.size()];
    for (LabelGroup g : groups) {
      int[] cand = RunContext.rowsOf(ctx, population, g.index);
      if (cand.length == 0) {
        continue;
      }
      if (config.secretFreeVotes() || config.publicGuided()) {
        double[] h = recordVotes(ctx, g, unit, cand);
        for (int j = 0; j < cand.length; j++) {
          histogram[cand[j]] += h[j];
        }
      } else if (g.release().size() > 0) {
        // Algorithm 3, lines 8-11: each representative's noisy count to its nearest candidate.
        LabelGroup.Release r = g.release();
        int[] nearest = Kernel.top1(r.centres(), Kernel.iota(r.size()), unit, cand, ctx.voteCentre(unit, cand));
        double[] h = Votes.representative(nearest, r.counts(), population.size());
        for (int c : cand) {
          histogram[c] += h[c];
        }
      }
    }
    return histogram;
  }

  /**
   * {@code secretFreeVotes}, over one group's candidates {@code cand}: every secret-free record
   * votes for its nearest candidate of its label (exact counts: public data under this guarantee),
   * and every representative's estimated private mass {@code max(0, n~_k - n_k)}, the noisy count
   * of the secret-holding records it gathered, is spread over the candidates the secret-free
   * records of its cluster voted for, in proportion to their votes (to the candidate nearest its
   * centre when no such record voted: a cluster of the public corpus). The holders are counted
   * where records like them, their cluster's, vote, not at the cluster's centre, whose nearest
   * candidates are the blandest. Post-processing of the release and of public data only. Returns
   * the votes of each position of {@code cand}.
   */
  private double[] recordVotes(RunContext ctx, LabelGroup g, EmbeddingMatrix unit, int[] cand) {
    float[] centre = ctx.voteCentre(unit, cand);
    LabelGroup.Clusters clusters = g.clusters();
    // Per cluster, how many of its records voted for each candidate (positions in cand): the
    // secret-free records wherever they live, or without the split the public corpus's members.
    ClusterVotes votes;
    if (config.publicGuided()) {
      votes = corpusVotes(ctx, g, unit, cand, centre);
    } else {
      votes = g.secretFree.length == 0
          ? ClusterVotes.none()
          : ctx.privateStore().secretFreeVotes(g.secretFree, clusters.secretFreeClusters(), unit.selectRows(cand), centre);
    }
    int[] position = new int[unit.rows()];
    for (int j = 0; j < cand.length; j++) {
      position[cand[j]] = j;
    }
    LabelGroup.Release r = g.release();
    int reps = r.size();
    double[] repCount = new double[reps];
    int[] repNearest = new int[reps];
    if (reps > 0) {
      int[] nearest = Kernel.top1(r.centres(), Kernel.iota(reps), unit, cand, centre);
      int[] sizes = clusters.sizes();
      for (int q = 0; q < reps; q++) {
        repCount[q] = r.counts()[q] - sizes[r.cluster()[q]];
        repNearest[q] = position[nearest[q]];
      }
    }
    return SecretFreeVotes.histogram(
        cand.length, votes, !config.publicGuided(), clusters.kept(), r.cluster(), repCount, repNearest);
  }

  /**
   * The public-guided selection's votes: each public record of the group's clusters for its
   * nearest candidate (positions in {@code cand}), counted by the record's cluster. Public data.
   */
  private static ClusterVotes corpusVotes(RunContext ctx, LabelGroup g, EmbeddingMatrix unit, int[] cand,
      float[] centre) {
    if (g.corpusRows.length == 0) {
      return ClusterVotes.none();
    }
    int[] nearest = Kernel.top1(ctx.publicUnit(), g.corpusRows, unit, cand, centre);
    int[] position = new int[unit.rows()];
    for (int j = 0; j < cand.length; j++) {
      position[cand[j]] = j;
    }
    int[] voted = new int[nearest.length];
    for (int i = 0; i < nearest.length; i++) {
      voted[i] = position[nearest[i]];
    }
    return ClusterVotes.of(g.corpusClusters(), voted, cand.length);
  }

  @Override
  public int[] select(
      RunContext ctx, int round, double[] votes, List<SyntheticText> population, EmbeddingMatrix unit) {
    if (config.secretFreeVotes() || config.paperTopN() || config.publicGuided()) {
      // Rank selection (Aug-PE's default; Algorithm 3 as printed): the top of each label's histogram.
      return ctx.topPerLabel(votes, population);
    }
    return ctx.selectPerGroup(
        population,
        (g, cand, share) -> {
          LabelGroup.Release r = groups.get(g).release();
          return r.size() == 0
              // Every representative was dropped: no private signal for this group.
              ? Arrays.copyOf(cand, Math.min(share, cand.length))
              : RepresentativeAllocation.select(r.centres(), r.privateMass(), unit, cand, share, ctx.voteCentre(unit, cand));
        });
  }

  @Override
  public List<Offspring> vary(
      RunContext ctx, int round, List<SyntheticText> survivors, SplittableRandom rng) {
    return Variation.fillIn(ctx, survivors, ctx.settings().variations(), rng);
  }

  // ------------------------------------------------------------------------ the report

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

  /** sigma of the release(s). */
  public double sigma() {
    return noise == null ? Double.NaN : noise.sigma();
  }

  @Override
  public List<String> warnings(RunContext ctx) {
    return SecPENotes.centreNoiseWarning(centreNoiseToSignal, config.shrinkRepresentatives());
  }

  @Override
  public List<String> deviations(RunContext ctx) {
    // only for private runs: the runner does not ask a non-private run for deviations
    return SecPENotes.deviations(config, ctx.settings().iterations(), groups);
  }
}
