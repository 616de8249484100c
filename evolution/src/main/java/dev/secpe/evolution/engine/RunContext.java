package dev.secpe.evolution.engine;

import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicTexts;
import dev.secpe.core.SyntheticText;
import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.VoteGeometry;
import dev.secpe.evolution.kernel.InProcessEmbeddings;
import dev.secpe.evolution.kernel.Kernel;
import dev.secpe.evolution.persist.ReleaseStore;
import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Everything a {@link Method} may use during a run. Private text is reachable only as embeddings
 * (through {@link PrivateTexts}, which enforces the {@link dev.secpe.core.PrivacyGuard}) and as
 * labels; generators are reachable only through the engine, with synthetic or public text.
 */
public final class RunContext {

  private final EvolutionSettings settings;
  private final PrivateStore privateStore;
  private final PublicCorpus publicData;
  private final TextEmbedder embedder;
  private final PrivacyLedger ledger;
  private final ReleaseStore store;
  private final List<Label> labels;
  private final int[] privateLabel;
  private EmbeddingMatrix publicUnit;
  private int[] share;

  /**
   * What one run shares between the engine and its method: settings, stores, ledger and release
   * store.
   */
  public RunContext(
      EvolutionSettings settings,
      PrivateStore privateStore,
      PublicCorpus publicData,
      TextEmbedder embedder,
      PrivacyLedger ledger,
      ReleaseStore store) {
    this.settings = settings;
    this.privateStore = privateStore;
    this.publicData = publicData;
    this.embedder = embedder;
    this.ledger = ledger;
    this.store = store;
    this.labels = Labels.of(privateStore.isLabelled(), settings.labels());
    this.privateLabel = privateStore.groups(labels);
    this.share = labels.isEmpty() ? new int[] {settings.syntheticSize()} : null;
  }

  /** The run's shared settings. */
  public EvolutionSettings settings() {
    return settings;
  }

  /** Where the private records live: every private aggregate comes from here. */
  public PrivateStore privateStore() {
    return privateStore;
  }

  /** The number of private records (public, see {@link PrivateStore#size()}). */
  public int privateSize() {
    return privateStore.size();
  }

  /**
   * The private records in this JVM, for the methods that need their text in process (DPGA, CTCL);
   * their builders refuse a store that does not hold them.
   */
  public PrivateDataset privateData() {
    return privateStore.inMemory().orElseThrow(() -> new IllegalStateException(
        "this method needs the private records in this JVM (PrivateStore.inMemory), got " + privateStore));
  }

  /** The public corpus (empty where the run has none). */
  public PublicCorpus publicData() {
    return publicData;
  }

  /** The run's embedder, as the engine wraps it (progress, one-off batches). */
  public TextEmbedder embedder() {
    return embedder;
  }

  /** The run's ledger: every release is charged here before its noise is drawn. */
  public PrivacyLedger ledger() {
    return ledger;
  }

  /** Where the run's noisy releases are drawn, kept and checkpointed (never drawn twice). */
  public ReleaseStore store() {
    return store;
  }

  private final Map<String, NoiseSource> releaseNoise = new HashMap<>();

  /**
   * The noise source for what is being drawn now: within a release, the source for that release
   * ({@link NoiseSource#forRelease}), so a resumed run draws what an uninterrupted one would.
   */
  public NoiseSource noise() {
    String id = store.drawing();
    if (id == null) {
      return settings.noise();
    }
    return noiseFor(id);
  }

  /**
   * The noise source of release {@code id} ({@link NoiseSource#forRelease}), for a mechanism
   * built before its release is drawn (SecPE's secret clustering is built to say what it charges):
   * the same source {@link #noise()} gives while that release is drawn.
   */
  public NoiseSource noiseFor(String id) {
    return releaseNoise.computeIfAbsent(id, settings.noise()::forRelease);
  }

  /**
   * {@code clean} plus independent Gaussian noise of standard deviation {@code sigma} on every
   * entry, from {@link #noise()}: call only inside a release's draw.
   */
  public double[] addGaussian(double[] clean, double sigma) {
    double[] out = clean.clone();
    NoiseSource noise = noise();
    for (int i = 0; i < out.length; i++) {
      out[i] += noise.gaussian(sigma);
    }
    return out;
  }

  /**
   * {@code clean} plus independent Laplace noise of scale {@code b} on every entry, from {@link
   * #noise()}: call only inside a release's draw.
   */
  public double[] addLaplace(double[] clean, double b) {
    double[] out = clean.clone();
    NoiseSource noise = noise();
    for (int i = 0; i < out.length; i++) {
      out[i] += noise.laplace(b);
    }
    return out;
  }

  /** The labels in a fixed order (empty when the private data is unlabelled). */
  public List<Label> labels() {
    return labels;
  }

  /** Number of label groups (1 when unlabelled). */
  public int groups() {
    return Math.max(1, labels.size());
  }

  /** The group of private record i. */
  public int privateGroup(int i) {
    return Math.max(0, privateLabel[i]);
  }

  /** The group of a candidate. */
  public int group(SyntheticText t) {
    if (labels.isEmpty()) {
      return 0;
    }
    Label l = t.label().orElseThrow(() -> new IllegalStateException("unlabelled candidate " + t.id()));
    int g = labels.indexOf(l);
    if (g < 0) {
      throw new IllegalStateException("candidate " + t.id() + " has unknown label " + l);
    }
    return g;
  }

  /** The label of group g, or empty when unlabelled. */
  public Optional<Label> label(int g) {
    return labels.isEmpty() ? Optional.empty() : Optional.of(labels.get(g));
  }

  /** Sets how many synthetic texts each label group gets (from public or released proportions). */
  public void setShares(double[] weights) {
    if (weights.length != groups()) {
      throw new IllegalArgumentException(
          "one weight per label group required, got " + weights.length + " for " + groups());
    }
    share = Allocation.largestRemainder(weights, settings.syntheticSize());
  }

  /** The declared public proportions, one per label group in {@link #labels()} order. */
  public double[] publicProportions() {
    if (!(settings.labels().orElse(null) instanceof LabelSet.DeclaredPublic d)) {
      throw new IllegalStateException("label proportions were not declared public");
    }
    return labels.stream().mapToDouble(l -> d.proportions().get(l)).toArray();
  }

  /** Synthetic texts per label group. */
  public int[] shares() {
    if (share == null) {
      throw new IllegalStateException("label shares were not set before they were needed");
    }
    return share.clone();
  }

  /**
   * The point this run's votes against the candidate rows {@code cand} of {@code unit} are measured
   * from: {@link Kernel#voteCentre} under {@link VoteGeometry#CENTRED}, {@code null} for plain
   * cosine.
   */
  public float[] voteCentre(EmbeddingMatrix unit, int[] cand) {
    return settings.voteGeometry() == VoteGeometry.CENTRED ? Kernel.voteCentre(unit, cand) : null;
  }

  /** Embeds the private records, once, wherever they live. */
  public void embedPrivate() {
    privateStore.embed(embedder, settings.guard());
  }

  /** Unit-norm embeddings of the private records, in this JVM (DPGA, CTCL). */
  public EmbeddingMatrix privateUnit() {
    embedPrivate();
    if (!(privateStore instanceof InProcessEmbeddings m)) {
      throw new IllegalStateException(
          "this method needs the private embeddings in this JVM (PrivateStore.inMemory), got " + privateStore);
    }
    return m.unit();
  }

  /** Unit-norm embeddings of the public records (computed once). */
  public EmbeddingMatrix publicUnit() {
    if (publicUnit == null) {
      publicUnit =
          PublicTexts.embed(embedder, publicData.texts())
              .normalizeRows(EmbeddingMatrix.ZeroRowPolicy.KEEP_ZERO);
    }
    return publicUnit;
  }

  /** Row indices of private records in group g. */
  public int[] privateRowsOf(int g) {
    return IntStream.range(0, privateLabel.length)
        .filter(i -> privateGroup(i) == g)
        .toArray();
  }

  /** Indices of candidates in group g. */
  public static int[] rowsOf(RunContext ctx, List<SyntheticText> population, int g) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < population.size(); i++) {
      if (ctx.group(population.get(i)) == g) {
        out.add(i);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** For each group, the top {@code shares()[g]} candidates of that group by score. */
  public int[] topPerLabel(double[] votes, List<SyntheticText> population) {
    return selectPerGroupOnScores(
        votes, population, (scores, share) -> Selection.topN(scores, Math.min(share, scores.length)));
  }

  /** A selection rule on one group's scores; returns indices into {@code scores}. */
  public interface ScoreSelector {
  /** The indices into {@code scores} of the {@code share} (or fewer) chosen. */
    int[] select(double[] scores, int share);
  }

  /**
   * {@link #selectPerGroup} for rules that read only the group's scores: each group's slice of
   * {@code votes} goes to {@code selector}, and its choices are mapped back to population indices.
   */
  public int[] selectPerGroupOnScores(double[] votes, List<SyntheticText> population, ScoreSelector selector) {
    return selectPerGroup(
        population,
        (g, rows, share) -> {
          double[] sub = new double[rows.length];
          for (int k = 0; k < rows.length; k++) {
            sub[k] = votes[rows[k]];
          }
          int[] picked = selector.select(sub, share);
          int[] out = new int[picked.length];
          for (int k = 0; k < picked.length; k++) {
            out[k] = rows[picked[k]];
          }
          return out;
        });
  }

  /** A selection rule for one label group. */
  public interface GroupSelector {
    /**
     * @param g the group
     * @param rows the population indices of the group's candidates (never empty)
     * @param share how many survivors the group should get
     * @return the chosen population indices
     */
    int[] select(int g, int[] rows, int share);
  }

  /** Runs {@code selector} on every group that has candidates and concatenates the choices. */
  public int[] selectPerGroup(List<SyntheticText> population, GroupSelector selector) {
    int[] shares = shares();
    List<Integer> chosen = new ArrayList<>();
    for (int g = 0; g < groups(); g++) {
      int[] rows = rowsOf(this, population, g);
      if (rows.length == 0) {
        continue;
      }
      for (int i : selector.select(g, rows, shares[g])) {
        chosen.add(i);
      }
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public String toString() {
    return "RunContext[" + privateStore + ", labels=" + labels + ", shares=" + Arrays.toString(share) + "]";
  }
}
