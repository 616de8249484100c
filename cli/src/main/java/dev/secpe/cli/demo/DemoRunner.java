package dev.secpe.cli.demo;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.Words;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.core.secret.RandomWordSecrets;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evaluation.DownstreamClassifier;
import dev.secpe.evaluation.Duplicates;
import dev.secpe.evaluation.FrechetDistance;
import dev.secpe.evaluation.KernelDistance;
import dev.secpe.evaluation.LengthDistance;
import dev.secpe.evaluation.Mauve;
import dev.secpe.evaluation.NearestSimilarity;
import dev.secpe.evaluation.PrincipalProjection;
import dev.secpe.evolution.AugPE;
import dev.secpe.evolution.CTCL;
import dev.secpe.evolution.DPGA;
import dev.secpe.evolution.EvolutionBuilder;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import dev.secpe.evolution.VoteGeometry;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.prompt.Domain;
import dev.secpe.llm.prompt.PromptTemplates;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.SortedSet;
import java.util.function.Supplier;

/**
 * Runs SecPE, Aug-PE, DPGA and CTCL at the same reconstruction guarantee (p = 1e-4, r/p in {2, 10,
 * inf}) on the bundled SpamAssassin sample with the given generators and embedder, once per seed,
 * and evaluates each run: FID per round against the real private set (in the public principal
 * components, {@link #FID_COMPONENTS}), MAUVE, and downstream accuracy on held-out real records.
 * The private records, the held-out records and the public records are embedded once per demo.
 */
public final class DemoRunner {

  /**
   * CTCL's public topics in the demo: with about 750 private e-mails, 2 labels x (20 + 1) bins of
   * noise std 10 still leave a usable histogram (100 topics would not).
   */
  public static final int CTCL_TOPICS = 20;

  /**
   * Principal components in which the demo's FID is measured: at 100 synthetic texts, FID in all
   * 384 dimensions carries a small-sample bias of about 0.5 that hides every difference between
   * methods (see {@code PrincipalProjection}). The components are those of the real private set,
   * the distribution FID compares against: on the mailing-list split its 16 leading components
   * hold 40% of its variance, the public set's 16 only 27% (they describe what varies among the
   * generator's own texts). FID in the public components is kept in results.json
   * ({@code fid_public_basis}).
   */
  public static final int FID_COMPONENTS = 16;

  /** The prior of every secret in the demo (SecPE's experiments). */
  public static final double PRIOR = 1e-4;

  /**
   * Demo settings.
   *
   * @param syntheticSize N_syn per run
   * @param iterations T
   * @param variations L
   * @param clusters SecPE's K
   * @param heldOut real private records kept out of every run, for downstream accuracy
   * @param ratios r/p values (infinity = non-private baseline)
   * @param methods which of "secpe", "augpe", "dpga", "ctcl" to run (CTCL needs a fine-tunable
   *     generator and uses {@link #CTCL_TOPICS} topics)
   * @param seeds the generation seeds: every (method, r/p) runs once per seed
   * @param secrets what SecPE protects: "random-words" (SecPE §4.2, words near the 20% frequency
   *     quantile of the public text) or "pii" (e-mail addresses, phone numbers, ...)
   * @param noise privacy noise source factory (secure unless the caller chose a test source)
   * @param voteGeometry how every method's votes measure the nearest candidate
   * @param secretCap SecPE's contribution bound K (0: the paper's data-dependent calibration)
   * @param secretDensity with random-word secrets: the share of public texts that should hold one
   *     (the word count is chosen on the public text so; NaN: the paper's 20 words)
   */
  public record Settings(
      int syntheticSize,
      int iterations,
      int variations,
      int clusters,
      int heldOut,
      List<Double> ratios,
      List<String> methods,
      List<Long> seeds,
      String secrets,
      Supplier<NoiseSource> noise,
      VoteGeometry voteGeometry,
      int secretCap,
      double secretDensity) {

    /** Validates the choices. */
    public Settings {
      if (secretCap < 0) {
        throw new IllegalArgumentException("secretCap must be >= 0, got secretCap=" + secretCap);
      }
      seeds = List.copyOf(seeds);
      if (seeds.isEmpty()) {
        throw new IllegalArgumentException("seeds must not be empty");
      }
      if (!List.of("random-words", "pii").contains(secrets)) {
        throw new IllegalArgumentException("secrets must be random-words or pii, got secrets=" + secrets);
      }
      if (!Double.isNaN(secretDensity) && !(secretDensity > 0 && secretDensity < 1)) {
        throw new IllegalArgumentException("--secret-density must be in (0, 1), got secret-density=" + secretDensity);
      }
      if (!Double.isNaN(secretDensity) && !secrets.equals("random-words")) {
        throw new IllegalArgumentException("--secret-density applies to --secrets random-words, got secrets=" + secrets);
      }
    }

    /** The settings of the demo before --secret-density (the paper's 20 random words). */
    public Settings(
        int syntheticSize, int iterations, int variations, int clusters, int heldOut, List<Double> ratios,
        List<String> methods, List<Long> seeds, String secrets, Supplier<NoiseSource> noise,
        VoteGeometry voteGeometry, int secretCap) {
      this(syntheticSize, iterations, variations, clusters, heldOut, ratios, methods, seeds, secrets, noise,
          voteGeometry, secretCap, Double.NaN);
    }
  }

  private final Settings settings;
  private final TextGenerator generator;
  private final TextGenerator ctclGenerator;
  private final TextEmbedder embedder;
  private final PrintStream log;
  /** The detector chosen for {@link #detectorData} and, once scanned, what it finds there. */
  private Data detectorData;
  private SecretDetector detector;
  private SecretIndex secretIndex;

  /**
   * A runner; the embedder should cache (the demo embeds the same texts many times).
   *
   * @param generator the generator of SecPE, Aug-PE and DPGA
   * @param ctclGenerator CTCL's generator, which must be fine-tunable (it may be {@code generator})
   */
  public DemoRunner(
      Settings settings, TextGenerator generator, TextGenerator ctclGenerator, TextEmbedder embedder,
      PrintStream log) {
    this.settings = settings;
    this.generator = generator;
    this.ctclGenerator = ctclGenerator;
    this.embedder = embedder;
    this.log = log;
  }

  /**
   * The data a demo runs on.
   *
   * @param corpus the corpus's name ({@link DemoCorpus#NAMES})
   * @param publicData the public side
   * @param privateData the private records that vote
   * @param heldOut private records kept out of every run: the reference every figure is measured
   *     against
   * @param labels the label names of the private records
   */
  public record Data(
      String corpus, PublicCorpus publicData, PrivateDataset privateData, List<PrivateRecord> heldOut,
      SortedSet<Label> labels) {}

  /**
   * The bundled corpus, split {@code "lists"} (public = the older folders, 717 e-mails; private =
   * the newer mailing-list e-mails and spam, 563, see {@link BundledCorpus#byMailingLists()}),
   * {@code "era"} (the same public side; private = every newer e-mail, 783, see {@link
   * BundledCorpus#byEra()}) or {@code "random"} (600 / 900, the same mix on both sides); {@code
   * heldOut} private e-mails, chosen with {@code seed}, are held out.
   */
  public static Data data(int heldOut, long seed, String split) {
    return data(DemoCorpus.named("spamassassin", split), heldOut, seed);
  }

  /** {@code corpus} with {@code heldOut} of its private records, chosen with {@code seed}, held out. */
  public static Data data(DemoCorpus corpus, int heldOut, long seed) {
    List<PrivateRecord> priv = new ArrayList<>(corpus.privateData().records());
    if (heldOut < 3 || heldOut > priv.size() - 50) {
      throw new IllegalArgumentException(
          "--held-out must be in [3, " + (priv.size() - 50) + "] for corpus " + corpus.name() + ", got held-out="
              + heldOut);
    }
    Collections.shuffle(priv, new Random(seed));
    return new Data(
        corpus.name(),
        corpus.publicData(),
        PrivateDataset.of(priv.subList(heldOut, priv.size())),
        List.copyOf(priv.subList(0, heldOut)),
        corpus.labels());
  }

  /**
   * What {@code n} random public records score, one draw per seed: the "no method at all"
   * baseline every method must beat. FID and KID against the held-out records, as the runs.
   *
   * @param seed the draw's seed
   * @param fid FID in the held-out set's {@link #FID_COMPONENTS} leading components
   * @param kid KID in the full dimension
   */
  public record Baseline(long seed, double fid, double kid) {}

  /** The public-sample baseline for each seed of the settings. */
  public List<Baseline> publicBaseline(Data data) {
    EmbeddingMatrix held = heldOut(data);
    PrincipalProjection projection = PrincipalProjection.fit(held, FID_COMPONENTS);
    List<String> pub = data.publicData().texts();
    List<Baseline> out = new ArrayList<>();
    for (long seed : settings.seeds()) {
      List<String> sample = new ArrayList<>(pub);
      Collections.shuffle(sample, new Random(seed));
      EmbeddingMatrix x =
          EmbeddingMatrix.of(embedder.embed(sample.subList(0, Math.min(settings.syntheticSize(), sample.size()))));
      out.add(new Baseline(seed, projection.frechetDistance(x, held), KernelDistance.between(x, held)));
    }
    return out;
  }

  private EmbeddingMatrix heldOut(Data data) {
    return PrivateTexts.embed(embedder, PrivateDataset.of(data.heldOut()), PrivacyGuard.localOnly());
  }

  /** Runs every method at every ratio. */
  public List<DemoResult> run(Data data) {
    LabelSet labels = new LabelSet.ToBeReleased(data.labels());
    // Every figure is measured against the held-out private records, which no run has seen.
    EmbeddingMatrix realUnit = heldOut(data);
    List<Label> testLabels = data.heldOut().stream().map(r -> r.label().orElseThrow()).toList();
    double[] realLengths = data.heldOut().stream().mapToDouble(r -> r.text().wordCount()).toArray();
    PrincipalProjection projection = PrincipalProjection.fit(realUnit, FID_COMPONENTS);
    double[][] realProjected = projection.project(realUnit);
    PrincipalProjection publicBasis =
        PrincipalProjection.fit(EmbeddingMatrix.of(embedder.embed(data.publicData().texts())), FID_COMPONENTS);
    double[][] realPublicBasis = publicBasis.project(realUnit);
    SecretDetector detector = detector(data);
    List<DemoResult> out = new ArrayList<>();
    for (double ratio : settings.ratios()) {
      for (String method : settings.methods()) {
        for (long seed : settings.seeds()) {
          log.printf("== %s at r/p = %s, seed %d%n",
              method, Double.isInfinite(ratio) ? "inf" : String.valueOf((long) ratio), seed);
          List<List<SyntheticText>> rounds = new ArrayList<>();
          double[][] lastVotes = {new double[0]};
          ThroughputLine[] embedding = {null};
          RunListener listener =
              e -> {
                if (e instanceof RunEvent.SurvivorsSelected s) {
                  rounds.add(s.survivors());
                  lastVotes[0] = s.votes();
                } else if (e instanceof RunEvent.Progress p && p.phase() == Phase.EMBEDDING) {
                  if (p.done() <= 0 || embedding[0] == null || p.done() < embedding[0].done()) {
                    embedding[0] = new ThroughputLine(
                        log, "   round " + p.round() + ", embedding", p.total(), Duration.ofSeconds(5));
                  }
                  embedding[0].advanceTo(p.done());
                }
              };
          RunResult result = run(method, ratio, seed, detector, data, labels, listener);
          List<Double> fids = new ArrayList<>();
          List<Double> fidelity = new ArrayList<>();
          List<Double> coverage = new ArrayList<>();
          List<Double> kids = new ArrayList<>();
          List<SyntheticText> finals = result.dataset().records();
          if (rounds.isEmpty()) {
            rounds.add(finals); // CTCL has no rounds: its one "round" is the final set
          }
          for (List<SyntheticText> r : rounds) {
            EmbeddingMatrix survivors = embed(r);
            fids.add(FrechetDistance.between(projection.project(survivors), realProjected));
            NearestSimilarity near = NearestSimilarity.of(realUnit, survivors);
            fidelity.add(near.fidelity());
            coverage.add(near.coverage());
            kids.add(KernelDistance.between(survivors, realUnit));
          }
          EmbeddingMatrix synth = embed(finals);
          FrechetDistance.Parts fidParts = FrechetDistance.parts(projection.project(synth), realProjected);
          double fid = fidParts.total();
          double fullFid = FrechetDistance.between(synth, realUnit);
          double publicBasisFid = FrechetDistance.between(publicBasis.project(synth), realPublicBasis);
          double mauve = Mauve.compute(realUnit, synth).mauve();
          List<Label> synthLabels = finals.stream().map(t -> t.label().orElseThrow()).toList();
          double acc = DownstreamClassifier.evaluate(synth, synthLabels, realUnit, testLabels).accuracy();
          Duplicates duplicates =
              Duplicates.of(finals.stream().map(SyntheticText::text).toList(), synth, Duplicates.DEFAULT_THRESHOLD);
          int[] lengths = finals.stream().mapToInt(t -> Words.count(t.text())).toArray();
          double lengthW1 =
              LengthDistance.of(realLengths, Arrays.stream(lengths).asDoubleStream().toArray())
                  .wasserstein1();
          List<String> samples = finals.stream().limit(3).map(SyntheticText::text).toList();
          DemoResult dr =
              new DemoResult(
                  method, ratio, seed, result.report(), fids, fidelity, coverage, kids, fid, fullFid, publicBasisFid, mauve, acc, lengthW1, lastVotes[0], lengths,
                  samples, duplicates.distinct(), duplicates.nearDuplicates(), fidParts,
                  labelDistance(synthLabels, testLabels));
          log.printf(Locale.ROOT, "   %s  FID %.4f -> %.4f  KID %.5f -> %.5f  fidelity %.4f -> %.4f  MAUVE %.3f"
                  + "  accuracy %.3f  distinct %d/%d  near-duplicates %d%n",
              Double.isNaN(dr.sigma()) ? "no noise (non-private)" : String.format(Locale.ROOT, "sigma %.3f", dr.sigma()),
              dr.firstFid(), fid, kids.get(0), dr.kid(), dr.firstFidelity(), dr.fidelity(), mauve, acc,
              duplicates.distinct(), finals.size(), duplicates.nearDuplicates());
          out.add(dr);
        }
      }
    }
    return out;
  }

  /** Total variation distance between the label shares of {@code a} and of {@code b}. */
  static double labelDistance(List<Label> a, List<Label> b) {
    Map<Label, Double> diff = new HashMap<>();
    a.forEach(l -> diff.merge(l, 1.0 / a.size(), Double::sum));
    b.forEach(l -> diff.merge(l, -1.0 / b.size(), Double::sum));
    return diff.values().stream().mapToDouble(Math::abs).sum() / 2;
  }

  /**
   * The detector of every SecPE run: PII, or random words (the paper's 20, or as many as
   * --secret-density asks). Chosen once per {@code data}: the runs and the baselines that read it
   * share it.
   */
  public SecretDetector detector(Data data) {
    if (detectorData != data) {
      detector = settings.secrets().equals("pii")
          ? PiiDetector.all()
          : Double.isNaN(settings.secretDensity())
              ? RandomWordSecrets.builder().publicCorpus(data.publicData()).build()
              : wordsForDensity(data.publicData().texts(), settings.secretDensity());
      secretIndex = null;
      detectorData = data;
    }
    return detector;
  }

  /** Which secrets the detector finds in the voting private records of {@code data}, scanned once. */
  private SecretIndex secretIndex(Data data) {
    SecretDetector d = detector(data);
    if (secretIndex == null) {
      secretIndex = SecretIndex.scan(data.privateData(), d, PrivacyGuard.localOnly());
    }
    return secretIndex;
  }

  /**
   * Random-word secrets (SecPE §4.2's rule at the 20% quantile) with the fewest words such that at
   * least {@code density} of {@code publicTexts} hold one: the density is set on public text, so
   * choosing it spends no privacy (the private share differs by the shift between the two).
   */
  public static RandomWordSecrets wordsForDensity(List<String> publicTexts, double density) {
    // Doubling, then bisection, over the word count; the share of texts holding a word grows with
    // it (a larger window of ranks holds the smaller one).
    int reached = -1;
    int below = 0; // the largest count known to fall short
    int count = 1;
    while (true) {
      RandomWordSecrets w = wordsOrNull(publicTexts, count);
      if (w == null) {
        // Past the vocabulary: the largest count that builds takes every word.
        int ok = below;
        int bad = count;
        while (bad - ok > 1) {
          int mid = (ok + bad) >>> 1;
          if (wordsOrNull(publicTexts, mid) != null) {
            ok = mid;
          } else {
            bad = mid;
          }
        }
        if (ok == 0) {
          throw new IllegalArgumentException("the public text has no vocabulary to choose secret words from");
        }
        RandomWordSecrets all = wordsOrNull(publicTexts, ok);
        if (share(all, publicTexts) < density) {
          return all; // even every word falls short of the density: take them all
        }
        reached = ok;
        break;
      }
      if (share(w, publicTexts) >= density) {
        reached = count;
        break;
      }
      below = count;
      count *= 2;
    }
    int lo = below + 1;
    int hi = reached;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (share(wordsOrNull(publicTexts, mid), publicTexts) >= density) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return wordsOrNull(publicTexts, hi);
  }

  private static RandomWordSecrets wordsOrNull(List<String> publicTexts, int count) {
    try {
      return RandomWordSecrets.builder().publicTexts(publicTexts).count(count).build();
    } catch (IllegalStateException vocabularyTooSmall) {
      return null;
    }
  }

  private static double share(RandomWordSecrets w, List<String> texts) {
    return texts.stream().filter(t -> !w.detect(t).isEmpty()).count() / (double) texts.size();
  }

  /**
   * What releasing {@code n} of the private records that hold no secret (by the runs' detector)
   * scores, one draw per seed: under (p, r)-secret protection they are public data, so a team could
   * release them with no method at all. FID and KID against the held-out records, as the runs.
   * Empty when no private record is free of secrets.
   */
  public List<Baseline> secretFreeBaseline(Data data) {
    SecretIndex index = secretIndex(data);
    List<PrivateRecord> free = new ArrayList<>();
    for (int i = 0; i < data.privateData().size(); i++) {
      if (index.secretsOf(i).length == 0) {
        free.add(data.privateData().records().get(i));
      }
    }
    if (free.isEmpty()) {
      return List.of();
    }
    EmbeddingMatrix held = heldOut(data);
    PrincipalProjection projection = PrincipalProjection.fit(held, FID_COMPONENTS);
    List<Baseline> out = new ArrayList<>();
    for (long seed : settings.seeds()) {
      List<PrivateRecord> sample = new ArrayList<>(free);
      Collections.shuffle(sample, new Random(seed));
      EmbeddingMatrix x = PrivateTexts.embed(
          embedder, PrivateDataset.of(sample.subList(0, Math.min(settings.syntheticSize(), sample.size()))),
          PrivacyGuard.localOnly());
      out.add(new Baseline(seed, projection.frechetDistance(x, held), KernelDistance.between(x, held)));
    }
    return out;
  }

  /** The share of private records (of those that vote) in which the runs' detector finds a secret. */
  public double secretShare(Data data) {
    return secretIndex(data).recordsWithSecrets() / (double) data.privateData().size();
  }

  /**
   * Downstream accuracy's ceiling: the demo's classifier trained on {@code n} real private records
   * (of those that vote, with their labels) and tested on the held-out ones, as every run's output
   * is.
   */
  public double realAccuracy(Data data, int n) {
    List<PrivateRecord> some = data.privateData().records().subList(0, Math.min(n, data.privateData().size()));
    EmbeddingMatrix real = PrivateTexts.embed(embedder, PrivateDataset.of(some), PrivacyGuard.localOnly());
    EmbeddingMatrix held = heldOut(data);
    return DownstreamClassifier.evaluate(
            real, some.stream().map(r -> r.label().orElseThrow()).toList(), held,
            data.heldOut().stream().map(r -> r.label().orElseThrow()).toList())
        .accuracy();
  }

  /**
   * FID (in the demo's projection) between the whole public set and the held-out private records:
   * how far the public text the generator starts from is from the target.
   */
  public double publicToPrivateFid(Data data) {
    EmbeddingMatrix pub = EmbeddingMatrix.of(embedder.embed(data.publicData().texts()));
    EmbeddingMatrix held = heldOut(data);
    return PrincipalProjection.fit(held, FID_COMPONENTS).frechetDistance(pub, held);
  }

  /**
   * FID (in the demo's projection) between {@code n} real private records (of those that vote) and
   * the held-out records: what real data scores at the synthetic sets' size, the level a synthetic
   * set that is "as close as real data" reaches.
   */
  public double heldOutFid(Data data, int n) {
    EmbeddingMatrix held = heldOut(data);
    List<PrivateRecord> some = data.privateData().records().subList(0, Math.min(n, data.privateData().size()));
    EmbeddingMatrix real = PrivateTexts.embed(embedder, PrivateDataset.of(some), PrivacyGuard.localOnly());
    return PrincipalProjection.fit(held, FID_COMPONENTS).frechetDistance(real, held);
  }

  private EmbeddingMatrix embed(List<SyntheticText> texts) {
    return EmbeddingMatrix.of(embedder.embed(texts.stream().map(SyntheticText::text).toList()));
  }

  private RunResult run(
      String method, double ratio, long seed, SecretDetector detector, Data data, LabelSet labels,
      RunListener listener) {
    boolean nonPrivate = Double.isInfinite(ratio);
    SecretBudget budget = nonPrivate ? null : SecretBudget.ofRatio(PRIOR, ratio);
    switch (method) {
      case "secpe":
      case "secpe-guided":
      case "secpe-split":
      case "secpe-joined":
      case "secpe-votes": {
        SecPE.Builder b = common(SecPE.builder(), seed, data, labels, listener, nonPrivate);
        if (settings.clusters() > 0) {
          b.clusters(settings.clusters());
        }
        if (method.equals("secpe-guided")) {
          b.selection(SecPE.SelectionMode.PUBLIC_GUIDED);
        } else if (!method.equals("secpe")) {
          b.secretFreeAsPublic(true).secretFreeVotes(method.equals("secpe-votes"))
              .publicJoinsClusters(method.equals("secpe-joined"));
        }
        if (!nonPrivate) {
          b.budget(budget).secrets(detector);
          if (settings.secretCap() > 0) {
            b.secretCap(settings.secretCap());
          }
        }
        return b.build().run();
      }
      case "augpe": {
        AugPE.Builder b = common(AugPE.builder(), seed, data, labels, listener, nonPrivate);
        if (!nonPrivate) {
          b.budget(budget);
        }
        return b.build().run();
      }
      case "ctcl": {
        CTCL.Builder b = common(CTCL.builder(), seed, data, labels, listener, nonPrivate).topics(CTCL_TOPICS)
            .generator(ctclGenerator);
        if (!nonPrivate) {
          b.budget(dpBudget(budget, data));
        }
        return b.build().run();
      }
      default: {
        DPGA.Builder b = common(DPGA.builder(), seed, data, labels, listener, nonPrivate);
        if (!nonPrivate) {
          b.budget(dpBudget(budget, data));
        }
        return b.build().run();
      }
    }
  }

  /** The same reconstruction guarantee: (p, r) -> mu (eq. 4) -> epsilon at delta = 1/(N ln N). */
  private static DpBudget dpBudget(SecretBudget budget, Data data) {
    GdpMu mu = Gdp.muFor(budget);
    double delta = DpBudget.deltaForDatasetSize(data.privateData().size());
    return new DpBudget(Gdp.epsilonAt(mu, delta), delta);
  }

  private <B extends EvolutionBuilder<B>> B common(
      B b, long seed, Data data, LabelSet labels, RunListener listener, boolean nonPrivate) {
    b.privateData(data.privateData())
        .publicData(data.publicData())
        .labels(labels)
        .generator(generator)
        .embedder(embedder)
        .syntheticSize(settings.syntheticSize())
        .seed(seed)
        .templates(PromptTemplates.defaults(Domain.EMAIL))
        .generation(new GenerationParams(1.0, 1.0, 160, List.of(), OptionalLong.empty()))
        .listener(listener);
    if (!(b instanceof CTCL.Builder)) { // CTCL has no rounds and refuses the evolution settings
      b.iterations(settings.iterations()).voteGeometry(settings.voteGeometry());
    }
    if (!(b instanceof CTCL.Builder) && !(b instanceof DPGA.Builder)) { // DPGA's offspring follow its shares
      b.variations(settings.variations());
    }
    if (nonPrivate) {
      b.nonPrivate();
    } else {
      b.noise(settings.noise().get());
    }
    return b;
  }
}
