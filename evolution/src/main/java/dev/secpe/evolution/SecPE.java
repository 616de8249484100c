package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.clustering.NonPositiveCountPolicy;
import dev.secpe.core.Label;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretDetectors;
import dev.secpe.evolution.engine.Inputs;
import dev.secpe.evolution.engine.Labels;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.RunKind;
import dev.secpe.evolution.secpe.ClustersPerGroup;
import dev.secpe.evolution.secpe.SecPEMethod;
import dev.secpe.evolution.secpe.SecPEOptions;
import dev.secpe.evolution.secpe.SecPEPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * SecPE, secret-protected evolution (Wang et al., "Secret-protected evolution for differentially
 * private synthetic text generation"): (p, r)-secret protection for the secrets a {@link
 * SecretDetector} finds, with the private data used once, through noisy cluster representatives,
 * and every round's vote computed from them at no further cost.
 *
 * <pre>{@code
 * PrivateDataset privateData = ...;   // the private records (their text reaches the embedder only)
 * PublicCorpus publicData = ...;      // public text: the clusters (optional with secretFreeAsPublic)
 * TextGenerator generator = ...;      // never sees private text
 * TextEmbedder embedder = ...;        // REMOTE ones need allowRemoteEmbedding()
 * RunResult result = SecPE.builder()
 *     .privateData(privateData).publicData(publicData)
 *     .generator(generator).embedder(embedder)
 *     .secrets(PiiDetector.all())
 *     .budget(SecretBudget.ofRatio(1e-4, 10))
 *     .build()
 *     .run();
 * }</pre>
 */
public final class SecPE extends Runs<SecPE.Config> {

  /**
   * SecPE's immutable configuration.
   *
   * @param settings the shared settings
   * @param budget the (p, r) budget of every secret: null exactly when {@code settings.privacy()}
   *     is {@link PrivacyMode.NonPrivate}
   * @param detector finds the secrets (receives private text: must be LOCAL unless allowed);
   *     required in a private run, optional in a non-private one
   * @param clusters K, public clusters in total (split evenly over label groups); 0 chooses K from
   *     the data when the run starts ({@link Builder#clusters})
   * @param kmeansRestarts k-means restarts on the public embeddings
   * @param reReleasePerRound release the representatives every round (T releases) instead of once
   * @param nonPositiveCountPolicy what to do with clusters whose noisy count is &lt;= 0
   * @param blowUpMethod exact mixture blow-up (default) or the paper's approximation
   * @param delta delta for the report's (epsilon, delta) line
   * @param selection how survivors are chosen from the representatives
   * @param shrinkRepresentatives pull the released centres back towards their public centres as
   *     far as noise threatens their direction (post-processing; see {@link
   *     Builder#shrinkRepresentatives})
   * @param secretCap K of the contribution-bounded mode ({@link Builder#secretCap}), 0 for the
   *     paper's data-dependent calibration
   * @param secretFreeAsPublic the paper's dataset split ({@link Builder#secretFreeAsPublic})
   * @param secretFreeVotes secret-free records vote one by one ({@link Builder#secretFreeVotes})
   * @param publicJoinsClusters in the split, the public corpus joins the clusters too ({@link
   *     Builder#publicJoinsClusters})
   */
  public record Config(
      EvolutionSettings settings,
      @Nullable SecretBudget budget,
      @Nullable SecretDetector detector,
      int clusters,
      int kmeansRestarts,
      boolean reReleasePerRound,
      NonPositiveCountPolicy nonPositiveCountPolicy,
      SecretNoise.BlowUpMethod blowUpMethod,
      double delta,
      SelectionMode selection,
      boolean shrinkRepresentatives,
      int secretCap,
      boolean secretFreeAsPublic,
      boolean secretFreeVotes,
      boolean publicJoinsClusters) implements RunConfig {

    /** Validates eagerly. */
    public Config {
      if (secretCap < 0) {
        throw new IllegalArgumentException("secretCap must be >= 0, got secretCap=" + secretCap);
      }
      RunConfig.requireBudgetMatches(settings, "budget", budget);
      if (settings.privacy() instanceof PrivacyMode.Private) {
        Objects.requireNonNull(detector, "detector");
      }
      if (clusters < 0) {
        throw new IllegalArgumentException("clusters must be >= 1 (or 0: chosen from the data), got clusters=" + clusters);
      }
      if (secretFreeVotes && !secretFreeAsPublic) {
        throw new IllegalArgumentException("secretFreeVotes needs secretFreeAsPublic: only records that hold no secret may vote without noise");
      }
      if (selection == SelectionMode.PUBLIC_GUIDED && secretFreeAsPublic) {
        throw new IllegalArgumentException("selection PUBLIC_GUIDED applies without the split (secretFreeAsPublic):"
            + " in the split the secret-free records guide the votes (secretFreeVotes)");
      }
      if (publicJoinsClusters && !secretFreeAsPublic) {
        throw new IllegalArgumentException("publicJoinsClusters applies to secretFreeAsPublic only: without the split the public data always forms the clusters");
      }
      if (kmeansRestarts < 1) {
        throw new IllegalArgumentException("kmeansRestarts must be >= 1, got kmeansRestarts=" + kmeansRestarts);
      }
      Objects.requireNonNull(nonPositiveCountPolicy, "nonPositiveCountPolicy");
      Objects.requireNonNull(blowUpMethod, "blowUpMethod");
      Objects.requireNonNull(selection, "selection");
    }

    String describe() {
      return (budget == null ? "non-private" : "p=" + budget.p() + ", r=" + budget.r())
          + ", detector=" + (detector == null ? "none" : detector.name()) + ", K=" + (clusters == 0 ? "auto" : clusters)
          + ", restarts=" + kmeansRestarts + ", reRelease=" + reReleasePerRound + ", policy="
          + nonPositiveCountPolicy + ", blowUp=" + blowUpMethod + ", selection=" + selection
          // Named only when on, so that older checkpoints resume with shrinkRepresentatives(false).
          + (shrinkRepresentatives ? ", shrinkRepresentatives" : "")
          + (secretCap > 0 ? ", secretCap=" + secretCap : "")
          + (secretFreeAsPublic ? ", secretFreeAsPublic" : "")
          + (secretFreeVotes ? ", secretFreeVotes" : "")
          + (publicJoinsClusters ? ", publicJoinsClusters" : "");
    }
  }

  /**
   * How the survivors of a round are chosen from the released representatives. All are
   * post-processing of the same release (and of public data): they cost no privacy and differ in
   * utility only.
   */
  public enum SelectionMode {
    /**
     * Algorithm 3 as printed: each representative adds its noisy count {@code n~_k} to the
     * histogram entry of its nearest candidate, and the top {@code N_syn} entries survive. At most
     * K candidates get a vote, so when K is below {@code N_syn} the rest of the survivors are
     * chosen without regard to the private data, and the public size {@code n_k} inside
     * {@code n~_k} weighs clusters by public, not private, mass.
     */
    PAPER_TOP_N,
    /**
     * The default: the survivors are allocated to the representatives in proportion to their
     * estimated private mass {@code max(0, n~_k - n_k)} (largest remainder), every candidate
     * belongs to its nearest representative, and each representative takes its nearest
     * candidates; slots a representative cannot fill go to the others by the same rule. The
     * survivors then follow the private distribution over clusters for any K.
     */
    ALLOCATED,
    /**
     * Without the split: every public record of a cluster votes for its nearest candidate (exact:
     * public data), and each representative's estimated private mass {@code max(0, n~_k - n_k)} is
     * spread over the candidates its cluster's public records voted for, in proportion to their
     * votes; the public votes themselves are not counted (they would pull the survivors towards the
     * public corpus). The top of each label's histogram survives (rank selection). The private
     * mass is counted where records like its cluster's vote, not at the cluster's centre, whose
     * nearest candidates are the blandest: the split's votes rule, with every private record still
     * sampled into the noisy shift (issue 51's hypothesis).
     */
    PUBLIC_GUIDED
  }

  /**
   * Thrown by {@link #run()} when the detector finds no secret in the private records: (p,
   * r)-secret protection would then protect nothing. The message names the detector, never a
   * record.
   */
  public static final class NoSecretsException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** The exception for a run whose detector, named {@code detector}, found no secret. */
    public NoSecretsException(String detector) {
      super(
          "no secrets were detected by '" + detector + "' in the private records: (p, r)-secret"
              + " protection would protect nothing; choose what to protect with"
              + " SecPE.Builder.secrets(...) (e.g. RandomWordSecrets or DictionaryDetector), or use"
              + " Aug-PE for record-level differential privacy");
    }
  }


  private SecPE(Config config, Inputs inputs, PrivacyPlan plan) {
    super(config, inputs, plan);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  Method newMethod() {
    return new SecPEMethod(options(config()), privacyPlan());
  }

  @Override
  String describe() {
    return config().describe();
  }

  /**
   * The mode ({@code secpe}, {@code secpe-split}, {@code secpe-split-votes}), whether the run uses
   * the secret-free records exactly (the split), and the detector's digest, which binds the
   * checkpoint and the journal entries to the detector's whole configuration, not its name; and the
   * prior p of its budget, journalled so that the dataset's (p, r) total can be given without it.
   */
  @Override
  RunKind kind(Method method) {
    Config c = config();
    String mode = c.secretFreeVotes() ? "secpe-split-votes" : c.secretFreeAsPublic() ? "secpe-split" : method.name();
    // A non-private baseline has no budget (and keeps no journal).
    return RunKind.perSecret(mode, c.secretFreeAsPublic(), c.detector() == null ? "" : SecretDetectors.digest(c.detector()),
        c.budget() == null ? OptionalDouble.empty() : OptionalDouble.of(c.budget().p()));
  }

  /**
   * What SecPE's steps read of {@code c}: plain values, so that the steps never import this class.
   */
  static SecPEOptions options(Config c) {
    return new SecPEOptions(
        c.settings(), c.budget(), c.detector(), c.clusters(), c.kmeansRestarts(), c.reReleasePerRound(),
        c.nonPositiveCountPolicy(), c.blowUpMethod(), c.delta(), c.selection() == SelectionMode.PAPER_TOP_N,
        c.selection() == SelectionMode.PUBLIC_GUIDED,
        c.shrinkRepresentatives(), c.secretCap(), c.secretFreeAsPublic(), c.secretFreeVotes(),
        c.publicJoinsClusters(), NoSecretsException::new);
  }


  /** Builds {@link SecPE} runs. */
  public static final class Builder extends EvolutionBuilder<Builder> {
    private SecretBudget budget;
    private SecretDetector detector;
    private int clusters;
    private int restarts = 3;
    private boolean reRelease;
    private NonPositiveCountPolicy policy = NonPositiveCountPolicy.DROP;
    private SecretNoise.BlowUpMethod blowUp = SecretNoise.BlowUpMethod.EXACT;
    private Double delta;
    private SelectionMode selection = SelectionMode.ALLOCATED;
    private boolean shrink = true;
    private int secretCap;
    private boolean secretFreeAsPublic;
    private boolean secretFreeVotes;
    private boolean publicJoinsClusters;

    Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The (p, r) budget of every secret (required). */
    public Builder budget(SecretBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /** Where secrets come from (required), e.g. {@code SecretDetectors} built-ins. */
    public Builder secrets(SecretDetector detector) {
      this.detector = Objects.requireNonNull(detector, "secrets");
      return this;
    }

    /**
     * K, public clusters in total, split evenly over the label groups (default: chosen from the data
     * when the run starts, {@code min(N_syn, base / 3)} per run, where base is the number of
     * records the clusters are built on; see {@code docs/method-findings.md} for the measurements
     * behind the rule).
     *
     * <p>A K that asks a label group for more clusters than it has records to build them on is
     * refused, never lowered: without the split by {@link #build()} (the public records of each
     * label are known then), with {@link #secretFreeAsPublic} when the run starts, once the
     * detector has said which records hold no secret, before anything is drawn. Where the records
     * hold fewer distinct embeddings than K (repeated texts), k-means leaves clusters empty; they
     * are dropped before the release and the report says how many per group (public data only:
     * the release and its cost do not change).
     */
    public Builder clusters(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("clusters must be >= 1, got clusters=" + k);
      }
      this.clusters = k;
      return this;
    }

    /**
     * k-means restarts on the public embeddings (default 3). With {@link #secretFreeAsPublic}, where a
     * label group's public part is larger than the k-means' seeding sample (max(10,000, 3K) rows),
     * the sample is seeded once and Lloyd steps over the whole part follow.
     */
    public Builder kmeansRestarts(int restarts) {
      if (restarts < 1) {
        throw new IllegalArgumentException("kmeansRestarts must be >= 1, got kmeansRestarts=" + restarts);
      }
      this.restarts = restarts;
      return this;
    }

    /** Re-release the representatives every round (T releases; default: release once). */
    public Builder reReleasePerRound(boolean on) {
      this.reRelease = on;
      return this;
    }

    /** Policy for clusters whose noisy count is &lt;= 0 (default DROP). */
    public Builder nonPositiveCountPolicy(NonPositiveCountPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "nonPositiveCountPolicy");
      return this;
    }

    /** Blow-up method of the calibration (default EXACT). */
    public Builder blowUpMethod(SecretNoise.BlowUpMethod method) {
      this.blowUp = Objects.requireNonNull(method, "blowUpMethod");
      return this;
    }

    /**
     * How survivors are chosen from the representatives (default {@link SelectionMode#ALLOCATED}).
     */
    public Builder selection(SelectionMode mode) {
      this.selection = Objects.requireNonNull(mode, "selection");
      return this;
    }

    /**
     * Whether the released centres are pulled back towards their public centres before use
     * (default {@code true}). Each noisy centre {@code e~_k} is replaced by {@code e_k + lambda_k
     * (e~_k - e_k)}, {@code lambda_k = |e_k|^2 / (|e_k|^2 + d (c_k sigma)^2)} with the centre noise
     * scale {@code c_k sigma = (R + max(R, |e_k|)) sigma / n_k} of eq. (7). With few public
     * records per cluster, noise in every one of d dimensions swamps the centre and it points in a
     * random direction; evolving towards it moves the synthetic text away from the private data.
     * Post-processing with public inputs: no privacy cost; no effect without noise. {@code false}
     * uses the noisy centres as the paper does.
     */
    public Builder shrinkRepresentatives(boolean on) {
      this.shrink = on;
      return this;
    }

    /**
     * Contribution-bounded calibration (off by default; not in the paper): at most {@code k}
     * records of any one secret are sampled, so sigma follows from (p, r, k) alone. The paper's
     * SECRETNOISE computes rho and sigma from which records hold which secret, so a neighbouring
     * dataset (one secret's records removed) can get another sigma, which the report prints
     * without noise; with a cap it cannot. Records holding no secret are always sampled; of the
     * records holding exactly one secret, k per secret are (chosen by a hash of the record keyed
     * by the seed), the others never; records holding two or more secrets are never sampled (a
     * cap on one secret must not change which records another keeps). Costs utility where
     * secrets are frequent. See {@code docs/math-decisions.md} §9.
     */
    public Builder secretCap(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("secretCap must be >= 1, got secretCap=" + k);
      }
      this.secretCap = k;
      return this;
    }

    /**
     * The paper's dataset split (off by default): SecPE's input is one dataset {@code D_pri ∪
     * D_pub}, and the private records in which the detector finds no secret are its public part.
     * They are clustered with k-means and join the clusters with their exact counts and centres,
     * without noise; only the records that hold a secret take part in SECRETNOISE and are sampled
     * into the noisy shift of eq. (7). The public corpus ({@link #publicData}) is optional here: a
     * label group with no secret-free record builds its clusters on the public records of its label
     * instead (the run refuses, before anything is drawn, when there are none), and with {@link
     * #publicJoinsClusters} the public corpus joins the clusters too. A generator that learns from
     * public text needs it all the same; one plugged in through the SPI needs none.
     *
     * <p>What it means for the guarantee: (p, r)-secret protection covers the detected secrets only,
     * not membership, so a record without a secret is released as public data would be (the paper's
     * reading, and this library's adjacency: the records holding a secret are removed). A secret
     * the detector misses is therefore released without noise, in every mode, but here the record
     * that holds it also shapes a cluster exactly: use a detector whose recall you have measured.
     *
     * <p>Runs on any {@link PrivateStore}: the k-means of the secret-free records, their counts and
     * (with {@link #secretFreeVotes}) their votes are the store's exact aggregates; only a sample of
     * their embeddings, drawn by the run to seed the k-means, comes to this JVM (public data under
     * this guarantee). The records that hold a secret reach it only through the noisy release.
     */
    public Builder secretFreeAsPublic(boolean on) {
      this.secretFreeAsPublic = on;
      return this;
    }

    /**
     * With {@link #secretFreeAsPublic}: the secret-free records also vote one by one for their
     * nearest candidate every round, exactly (they need no noise under this guarantee), and each
     * noisy representative's estimated count of secret-holding records {@code max(0, n~_k - n_k)}
     * is spread over the candidates its cluster's secret-free records voted for, in proportion to
     * their votes; the top of each label's histogram survives (rank selection, as Aug-PE's
     * default). The release is the paper's; only its use differs. Not in the paper (off by default); the paper's rule votes
     * with the representatives alone.
     */
    public Builder secretFreeVotes(boolean on) {
      this.secretFreeVotes = on;
      return this;
    }

    /**
     * With {@link #secretFreeAsPublic}: the public corpus joins the clusters beside the secret-free
     * records (off by default: measured level with it on two corpora, and without it the public text
     * need not be embedded); needs {@link #publicData}. Without the split the public corpus always
     * forms the clusters.
     */
    public Builder publicJoinsClusters(boolean on) {
      this.publicJoinsClusters = on;
      return this;
    }

    /** delta for the report's (epsilon, delta) line (default 1/(N ln N)). */
    public Builder reportDelta(double delta) {
      if (!(delta > 0 && delta < 1)) {
        throw new IllegalArgumentException("reportDelta must be in (0, 1), got reportDelta=" + delta);
      }
      this.delta = delta;
      return this;
    }

    @Override
    List<String> missingOwn() {
      List<String> out = new ArrayList<>();
      out.addAll(budgetMissing(budget, "budget(SecretBudget)"));
      if (!nonPrivate && detector == null) {
        out.add("secrets (secrets(SecretDetector))");
      }
      if ((publicData == null || publicData.isEmpty()) && !secretFreeAsPublic) {
        // The split builds its clusters on the private records that hold no secret: public data
        // is optional there (a group without such records falls back to it, and says so).
        out.add("publicData (SecPE's clusters are built on public data only; secretFreeAsPublic(true) builds them"
            + " on the private records that hold no secret)");
      }
      return out;
    }

    /** Validates everything and returns a single-use run. */
    public SecPE build() {
      EvolutionSettings s = settings();
      refuseBudgetWhenNonPrivate(budget);
      if (!(s.privacy() instanceof PrivacyMode.NonPrivate)) {
        s.guard().checkSecretDetector(detector.name(), detector.locality());
      }
      double d = delta != null ? delta : DpBudget.deltaForDatasetSize(Math.max(2, privateData.size()));
      if (secretCap > 0 && s.privacy() instanceof PrivacyMode.NonPrivate) {
        throw new IllegalStateException("secretCap(" + secretCap + ") and nonPrivate() conflict: a non-private run samples every record");
      }
      if (secretFreeVotes && !secretFreeAsPublic) {
        throw new IllegalStateException(
            "secretFreeVotes(true) needs secretFreeAsPublic(true): only records that hold no secret may vote without noise");
      }
      if (publicJoinsClusters && !secretFreeAsPublic) {
        throw new IllegalStateException(
            "publicJoinsClusters(true) applies to secretFreeAsPublic(true) only: without the split the public data always forms the clusters");
      }
      if (publicJoinsClusters && (publicData == null || publicData.isEmpty())) {
        throw new IllegalStateException(
            "publicJoinsClusters(true) needs publicData: the public corpus it names joins the clusters");
      }
      Config c = new Config(s, budget, detector, clusters, restarts, reRelease, policy, blowUp, d, selection, shrink,
          secretCap, secretFreeAsPublic, secretFreeVotes, publicJoinsClusters);
      // The plan is solved here, before any private record is read (in the paper's mode it fixes
      // the releases; SECRETNOISE solves their noise from the data when the run starts).
      List<Label> labels = Labels.of(privateData.isLabelled(), s.labels());
      Inputs inputs = new Inputs(privateData, publicData, generator, embedder);
      if (clusters > 0 && !secretFreeAsPublic && !inputs.publicData().records().isEmpty()) {
        // K against each label group's public records: public facts, refused before any private
        // record is read (before, run() refused it after embedding the private data)
        ClustersPerGroup.publicRowsByGroup(clusters, labels, inputs.publicData().records());
      }
      return new SecPE(c, inputs, SecPEPlan.of(options(c), labels.size()));
    }
  }
}
