package dev.secpe.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.DatasetReader;
import dev.secpe.core.io.InputLimitException;
import dev.secpe.core.io.InputStalledException;
import dev.secpe.core.report.PrivacyReportJson;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.evolution.AugPE;
import dev.secpe.evolution.CTCL;
import dev.secpe.evolution.DPGA;
import dev.secpe.evolution.EvolutionBuilder;
import dev.secpe.evolution.PrivacyJournal;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.embedded.GuidedSpliceGenerator;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.embedded.NgramTextGenerator;
import dev.secpe.llm.embedded.SpliceTextGenerator;
import dev.secpe.llm.prompt.Domain;
import dev.secpe.llm.prompt.PromptTemplates;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code secpe run}: one SecPE, Aug-PE, DPGA or CTCL run from JSONL files, writing the synthetic data and
 * a JSON privacy report. Without {@code --generator}/{@code --embedder} it uses the embedded
 * defaults: the splice generator trained on {@code --public} (CTCL: the guided splice generator,
 * whose n-gram model it fine-tunes) and the in-process MiniLM embedder.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Generate differentially private synthetic text with SecPE, Aug-PE, DPGA or CTCL.")
final class RunCommand implements Callable<Integer> {

  enum MethodName {
    secpe,
    augpe,
    dpga,
    ctcl
  }

  // One picocli field per flag, with its name, default and help beside it. These declarations are
  // alike in shape (duplicates lists them as a pair) but each is its own flag; what the method-specific
  // ones mean to each method is written once, in METHOD_OPTIONS.
  @Option(names = "--method", required = true, description = "secpe, augpe, dpga or ctcl")
  MethodName method;

  @Option(names = "--private", required = true, paramLabel = "FILE", description = "private records (JSONL or CSV); with --spark, JSONL and any path Spark reads (hdfs://, s3a://, ...)")
  String privateArg;

  /** --private as a local path (null when it is a URI for Spark). */
  Path privateFile;

  /** A URI scheme such as hdfs:// or s3a:// (not a Windows drive letter). */
  private static final Pattern URI_SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]+://");

  @Option(names = "--public", paramLabel = "FILE", description = "public records (JSONL or CSV): SecPE's clusters (optional with --secret-free-public), CTCL's topics, the embedded generators' training text")
  Path publicFile;

  @Option(names = "--text-field", defaultValue = "text", description = "text field (default: ${DEFAULT-VALUE})")
  String textField;

  @Option(names = "--label-field", description = "label field; labels are released through a noisy histogram")
  String labelField;

  @Option(names = "--labels", split = ",", description = "the public label names (default: those in --public)")
  List<String> labelNames;

  @Option(names = "--synthetic-size", required = true, description = "N, synthetic texts to produce")
  int syntheticSize;

  @Option(names = "--iterations", description = "T, vote rounds of secpe, augpe and dpga; ctcl has none (default: "
      + EvolutionBuilder.DEFAULT_ITERATIONS + ", the library's)")
  Integer iterations;

  @Option(names = "--variations", defaultValue = "3", description = "L, variations per survivor (default: ${DEFAULT-VALUE})")
  int variations;

  @Option(names = "--provider-timeout", paramLabel = "SECONDS", description = "the longest one batch of generation or embedding may take before it is cancelled and retried (default: 600 for generation, 120 for embedding)")
  Long providerTimeout;

  @Option(names = "--provider-retries", paramLabel = "N", description = "further attempts after a timeout or a retryable provider failure (default: 2)")
  Integer providerRetries;

  @Option(names = "--secret-cap", paramLabel = "K", description = "SecPE: sample at most K records per secret, so sigma depends on (p, r, K) alone (default: off, the paper's data-dependent calibration)")
  Integer secretCap;

  @Option(names = "--clusters", description = "K, SecPE's public clusters, split evenly over the label groups (ceil(K / groups) each); a K that asks a group for more clusters than it has records to build them on is refused, never lowered (default: chosen from the data per label group, min(ceil(N_syn / groups), base / 3) and at least 1, base = the records that group's clusters are built on: --public, or with --secret-free-public the secret-free records; the report says which K, and how many clusters repeated texts left empty and were dropped)")
  Integer clusters;

  @Option(names = "--secret-free-public", description = "SecPE: the paper's dataset split: private records in which the detector finds no secret are SecPE's public part (clustered and counted exactly, no noise); only secret-holding records are sampled and noised, and --public is optional. The guarantee covers the named secrets only, not membership")
  boolean secretFreePublic;

  @Option(names = "--secret-free-votes", description = "SecPE with --secret-free-public: the secret-free records also vote one by one, exactly, and each noisy representative's count of secret-holding records is spread over the candidates its cluster's records voted for; the top of each label's histogram survives (rank selection, as Aug-PE's; not in the paper)")
  boolean secretFreeVotes;

  @Option(names = "--public-guided-votes", description = "SecPE without --secret-free-public: every public record votes for its nearest candidate, exactly, and each noisy representative's private mass is spread over the candidates its cluster's public records voted for (the public votes only guide it); the top of each label's histogram survives (rank selection). Post-processing: the same release, the same guarantee (not in the paper)")
  boolean publicGuidedVotes;

  @Option(names = "--public-joins-clusters", description = "SecPE with --secret-free-public: --public joins the clusters beside the secret-free records (default: off; the public text still trains the embedded generators)")
  boolean publicJoinsClusters;

  @Option(names = "--topics", defaultValue = "20", description = "CTCL: public k-means topics (default: ${DEFAULT-VALUE})")
  int topics;

  @Option(names = "--steps", defaultValue = "2000", description = "CTCL: DP fine-tuning steps (default: ${DEFAULT-VALUE})")
  int steps;

  @Option(names = "--batch-size", description = "CTCL: expected DP-SGD batch (default: min(4096, N/4))")
  Integer batchSize;

  @Option(names = "--clip-norm", defaultValue = "1.0", description = "CTCL: per-document clip norm (default: ${DEFAULT-VALUE})")
  double clipNorm;

  @Option(names = "--histogram-sigma", defaultValue = "10", description = "CTCL: noise std of each topic-histogram bin (default: ${DEFAULT-VALUE})")
  double histogramSigma;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Budget budget;

  static final class Budget {
    @ArgGroup(exclusive = false)
    Secret secret;

    @ArgGroup(exclusive = false)
    Dp dp;
  }

  static final class Secret {
    @Option(names = "--p", required = true, description = "prior p of every secret, with --r: a (p, r) budget, which every method takes (secpe only this one; augpe, dpga and ctcl through mu-GDP); the alternative to --epsilon/--delta")
    double p;

    @Option(names = "--r", required = true, description = "posterior bound r of every secret (r > p), with --p")
    double r;

    /** --p and --r as a budget (its constructor checks them). */
    SecretBudget toBudget() {
      return new SecretBudget(p, r);
    }
  }

  static final class Dp {
    @Option(names = "--epsilon", required = true, description = "epsilon of an (epsilon, delta) record-level differential privacy budget, with --delta: for augpe, dpga and ctcl (secpe takes --p/--r only); the alternative to --p/--r")
    double epsilon;

    @Option(names = "--delta", required = true, description = "delta of the (epsilon, delta) budget, with --epsilon: in (0, 1) and below 1/N for N private records (a larger delta needs --allow-large-delta)")
    double delta;

    /** --epsilon and --delta as a budget (its constructor checks them). */
    DpBudget toBudget() {
      return new DpBudget(epsilon, delta);
    }
  }

  @Option(names = "--secrets", paramLabel = "SPEC", description = "SecPE: what to protect, comma-separated pii | names | random-words[:COUNT] | terms:FILE (default: pii, and pii,names with --secret-free-public, where a record whose secret the detector misses is used exactly: names are the PII support tickets hold most)")
  String secretsSpec;

  @Option(names = "--generator", description = "generator: splice (embedded-splice), ngram (embedded-ngram) or guided-splice (embedded-guided-splice: the splice generator's texts reranked by an n-gram model CTCL fine-tunes), all trained on --public, or any installed provider (see `secpe providers`); default: splice, and guided-splice for --method ctcl")
  String generatorName;

  @Option(names = "--embedder", description = "embedder provider (default: in-process all-MiniLM-L6-v2)")
  String embedderName;

  @Option(names = "--provider-option", paramLabel = "KEY=VALUE", description = "setting passed to --generator/--embedder providers")
  Map<String, String> providerOptions = new HashMap<>();

  @Option(names = "--allow-remote-embedding", description = "allow private text to reach a REMOTE embedder")
  boolean allowRemote;

  @Option(names = "--domain", defaultValue = "EMAIL", description = "prompt domain: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  Domain domain;

  @Option(names = "--max-tokens", defaultValue = "200", description = "generation limit (default: ${DEFAULT-VALUE})")
  int maxTokens;

  @Option(names = "--seed", defaultValue = "0", description = "seed of generation and sampling choices (not of privacy noise)")
  long seed;

  @Option(names = "--vote-geometry", defaultValue = "centred", description = "centred: cosine after removing the candidates' mean (fewer hub votes); cosine: the papers' rule (default: ${DEFAULT-VALUE})")
  String voteGeometry;

  @Option(names = "--reproducible-noise", paramLabel = "SEED", description = "seeded NON-PRIVATE noise, for tests and demos; the report says so")
  Long reproducibleNoise;

  @Option(names = "--checkpoint", paramLabel = "DIR", description = "checkpoint after every release and round")
  Path checkpoint;

  @Option(names = "--resume", description = "continue from --checkpoint, reusing every release drawn there")
  boolean resume;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "synthetic JSONL output")
  Path out;

  @Option(names = "--report", required = true, paramLabel = "FILE", description = "privacy report (JSON)")
  Path report;

  @Option(names = "--allow-large-delta", description = "accept --delta >= 1/N (N private records); the report says so")
  boolean allowLargeDelta;

  @Option(names = "--spark", paramLabel = "MASTER", description = "SecPE and Aug-PE: keep the private records on Apache Spark (local[2], yarn, spark://HOST:PORT); executors embed and count, this process keeps the ledger and draws the noise. --private must be JSON lines")
  String sparkMaster;

  @Option(names = "--input-timeout", paramLabel = "SECONDS", defaultValue = "60", description = "the longest wait for an input file (--private, --public, a --secrets terms file) to open and for each read's data: a FIFO that no process writes to, or a stalled read, fails after it (default: ${DEFAULT-VALUE})")
  long inputTimeout;

  @Option(names = "--quiet", description = "no progress on stderr (warnings and errors are still printed)")
  boolean quiet;

  @Option(names = "--journal", paramLabel = "DIR", description = "the privacy journals: one per private dataset, every release recorded before it is drawn, one run per dataset at a time (default: $XDG_STATE_HOME/secpe/journal or ~/.local/state/secpe/journal)")
  Path journal;

  @Option(names = "--journal-wait", paramLabel = "SECONDS", defaultValue = "0", description = "how long to wait for another run on the same dataset or checkpoint to end before refusing (default: ${DEFAULT-VALUE})")
  long journalWait;

  @Option(names = "--format", defaultValue = "auto", description = "format of --private and --public: auto (from the name: .jsonl, .csv, optionally .gz), jsonl or csv (default: ${DEFAULT-VALUE})")
  String format;

  @Option(names = "--max-record-chars", paramLabel = "N", description = "the longest input record (a JSON line, a CSV field) read, in characters (default: 16777216)")
  Long maxRecordChars;

  @Option(names = "--max-input-bytes", paramLabel = "N", description = "the most bytes read from one input file (default: 4294967296)")
  Long maxInputBytes;

  private SecretDetector detector;

  /** Cancels the run (which journals its end) on SIGTERM or SIGINT; set once the providers exist. */
  private CloseOnExit onSignal;

  /** Runs {@code run} so that a signal cancels it and lets it journal its end. */
  private RunResult running(Runnable cancel, Supplier<RunResult> run) {
    return onSignal == null ? run.get() : onSignal.whileRunning(cancel, run);
  }

  @Spec CommandSpec spec;

  /** A method-specific option and the methods that read it. */
  private record MethodOption(String name, Set<MethodName> readBy) {}

  /**
   * The method-specific options, each with the methods that read it, in the order they are
   * checked: any other method refuses the option rather than ignore it ({@link #refuseInapplicable}),
   * and {@link #reads} tells the run and its checks whether the chosen method takes it.
   */
  private static final List<MethodOption> METHOD_OPTIONS = List.of(
      new MethodOption("--iterations", EnumSet.of(MethodName.secpe, MethodName.augpe, MethodName.dpga)),
      // DPGA's offspring follow its operator shares
      new MethodOption("--variations", EnumSet.of(MethodName.secpe, MethodName.augpe)),
      new MethodOption("--clusters", EnumSet.of(MethodName.secpe)),
      new MethodOption("--secrets", EnumSet.of(MethodName.secpe)),
      new MethodOption("--topics", EnumSet.of(MethodName.ctcl)),
      new MethodOption("--steps", EnumSet.of(MethodName.ctcl)),
      new MethodOption("--batch-size", EnumSet.of(MethodName.ctcl)),
      new MethodOption("--clip-norm", EnumSet.of(MethodName.ctcl)),
      new MethodOption("--histogram-sigma", EnumSet.of(MethodName.ctcl)),
      new MethodOption("--vote-geometry", EnumSet.of(MethodName.secpe, MethodName.augpe, MethodName.dpga)),
      new MethodOption("--secret-cap", EnumSet.of(MethodName.secpe)),
      new MethodOption("--secret-free-public", EnumSet.of(MethodName.secpe)),
      new MethodOption("--secret-free-votes", EnumSet.of(MethodName.secpe)),
      new MethodOption("--public-guided-votes", EnumSet.of(MethodName.secpe)),
      new MethodOption("--public-joins-clusters", EnumSet.of(MethodName.secpe)));

  /** Whether the chosen --method reads {@code option}, one of {@link #METHOD_OPTIONS}. */
  boolean reads(String option) {
    return METHOD_OPTIONS.stream().filter(o -> o.name().equals(option)).findFirst()
        .orElseThrow(() -> new IllegalStateException("not a method-specific option: " + option))
        .readBy().contains(method);
  }

  /**
   * T as the run takes it: --iterations, else the library's default ({@link
   * EvolutionBuilder#DEFAULT_ITERATIONS}) for a method with vote rounds; 1 for CTCL, which has none.
   */
  int rounds() {
    return iterations != null ? iterations : reads("--iterations") ? EvolutionBuilder.DEFAULT_ITERATIONS : 1;
  }

  /**
   * --secrets as given, else the default: {@code pii}, and {@code pii,names} in the dataset split
   * (--secret-free-public), where a record in which the detector misses a secret is used exactly,
   * so recall comes first: names are the PII support tickets hold most.
   */
  String secretsSpec() {
    return secretsSpec != null ? secretsSpec : secretFreePublic ? "pii,names" : "pii";
  }

  /** Refuses options the chosen method would silently ignore, and --labels without --label-field. */
  private void refuseInapplicable() {
    if (spec == null) {
      return;
    }
    ParseResult pr = spec.commandLine().getParseResult();
    for (MethodOption o : METHOD_OPTIONS) {
      if (pr.hasMatchedOption(o.name()) && !o.readBy().contains(method)) {
        throw new IllegalArgumentException(
            o.name() + " does not apply to --method " + method + " (it is read by --method "
                + o.readBy().stream().map(MethodName::name).sorted().collect(Collectors.joining(", ")) + ")");
      }
    }
    if (pr.hasMatchedOption("--labels") && labelField == null) {
      throw new IllegalArgumentException("--labels needs --label-field: without labels on the records it would be ignored");
    }
    DemoCommand.voteGeometry(voteGeometry);
  }

  @Override
  public Integer call() throws Exception {
    Duration readTimeout = Duration.ofSeconds(RunChecks.atLeast("--input-timeout", inputTimeout, 1, " second"));
    DatasetReader reader = RunChecks.reader(this, readTimeout);
    // Options that cannot work together are refused before any start-up work (reading an input,
    // training a generator, loading or probing a model).
    refuseInapplicable();
    RunChecks.combinations(this);
    boolean privateUri = URI_SCHEME.matcher(privateArg).find();
    if (privateUri && sparkMaster == null) {
      throw new IllegalArgumentException(
          "--private " + privateArg + " is a URI: only --spark reads private records from there; give a local file");
    }
    privateFile = privateUri ? null : Path.of(privateArg);
    // Everything that can be checked without reading an input: numbers, sizes, provider options,
    // the inputs' kinds, every output (probed with a real write of its expected size), then that
    // the inputs exist (a missing one said before any hint).
    RunChecks.options(this);
    RunChecks.inputs(this);
    RunChecks.outputs(this);
    RunChecks.inputsExist(this);
    // Consent before any request: a REMOTE embedder is not even probed without it.
    RunChecks.remoteEmbedding(this, null);
    RunChecks.labelFieldHint(this, spec.commandLine().getErr());
    // Checked before any private record is read: what to protect, and the public text it needs.
    SecretsOption.Spec secrets = SecretsOption.parse(secretsSpec(), readTimeout);
    PublicCorpus pub = publicFile == null ? PublicCorpus.of(List.of()) : read("--public", () -> reader.readPublic(publicFile));
    if (publicFile != null && pub.isEmpty()) {
      throw new IllegalArgumentException("--public " + publicFile + " holds no records: give a --public file with public text");
    }
    if (reads("--secrets")) {
      detector = SecretsOption.build(secrets, pub);
    }
    if (sparkMaster != null) {
      if (method != MethodName.secpe && method != MethodName.augpe) {
        throw new IllegalArgumentException(
            "--spark runs --method secpe and augpe; " + method + " needs its private records in this process");
      }
      String name = privateArg.toLowerCase(Locale.ROOT);
      if (name.endsWith(".csv") || name.endsWith(".csv.gz")) {
        throw new IllegalArgumentException("--spark reads --private as JSON lines (.jsonl, .jsonl.gz), got " + privateArg);
      }
    }
    try (SparkSessionOrNone spark = SparkSessionOrNone.open(this)) {
      PrivateStore priv = spark.store != null
          ? spark.store
          : PrivateStore.inMemory(read("--private", () -> reader.readPrivate(privateFile)));
      // The providers are made (a signal then closes them before the JVM stops) and probed with
      // one public request before anything is drawn: an unreachable generator costs nothing
      // (before, SecPE's first release was charged).
      try (CloseOnExit onSignal = new CloseOnExit();
          TextGenerator generator = onSignal.open(() -> generator(pub));
          TextEmbedder embedder = onSignal.open(this::embedder)) {
        this.onSignal = onSignal;
        RunChecks.remoteEmbedding(this, embedder);
        RunChecks.probe(this, generator, embedder, pub);
        return runOn(priv, pub, generator, embedder);
      }
    } catch (RuntimeException e) {
      throw sparkMaster == null ? e : SparkRun.unwrap(e);
    }
  }

  private TextEmbedder embedder() {
    return embedderName == null
        ? MiniLmEmbedder.create()
        : Providers.installed().createEmbedder(embedderName, ProviderConfig.of(providerOptions));
  }

  /**
   * Reads an input file, naming the option in a failure to read it (a missing file, a FIFO that no
   * process writes to, a stalled read: all exit 2).
   */
  static <T> T read(String option, Supplier<T> reader) {
    try {
      return reader.get();
    } catch (InputLimitException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage() + "; raise it with "
          + (e.setting().equals("maxRecordChars") ? "--max-record-chars" : "--max-input-bytes") + " if the input is meant to be this large", e);
    } catch (UncheckedIOException e) {
      String hint = e.getCause() instanceof InputStalledException
          ? "; raise --input-timeout if its writer is only slow" : "";
      throw new UncheckedIOException(option + ": " + e.getMessage() + hint, e.getCause());
    }
  }

  /** The Spark context and store of --spark, or nothing: closed after the run. */
  private static final class SparkSessionOrNone implements AutoCloseable {
    final PrivateStore store;
    private final AutoCloseable session;

    private SparkSessionOrNone(PrivateStore store, AutoCloseable session) {
      this.store = store;
      this.session = session;
    }

    static SparkSessionOrNone open(RunCommand c) {
      if (c.sparkMaster == null) {
        return new SparkSessionOrNone(null, null);
      }
      SparkRun run = SparkRun.open(
          c.sparkMaster, c.privateArg, c.textField, c.labelField, c.embedderName, c.providerOptions);
      return new SparkSessionOrNone(run.store(), run);
    }

    @Override
    public void close() throws Exception {
      if (session != null) {
        session.close();
      }
    }
  }

  private int runOn(PrivateStore priv, PublicCorpus pub, TextGenerator generator, TextEmbedder embedder) throws Exception {
    // The library warns about delta >= 1/N (before the run and in the report); the CLI refuses it
    // unless the user accepts it explicitly.
    if (budget.dp != null && !allowLargeDelta) {
      Optional<String> large = DpBudget.deltaAboveOneOverN(budget.dp.delta, priv.size());
      if (large.isPresent()) {
        throw new IllegalArgumentException(large.get() + "; choose a smaller --delta or pass --allow-large-delta");
      }
    }
    RunChecks.labels(this, priv, pub);
    RunResult result = run(priv, pub, generator, embedder);
    warnAfterRun(result.report().warnings());
    OutputPaths.writeAtomically("--out", out, result.dataset()::writeJsonl);
    ObjectNode json = PrivacyReportJson.toTree(result.report());
    if (!result.report().mechanisms().isEmpty()) {
      // Where this run was journalled and what the dataset has spent over every run so far. The
      // journal's directory only: the file's path holds the dataset key, an unsalted digest of the
      // private texts, which a shareable report must not carry.
      ObjectNode j = json.putObject("journal");
      j.put("directory", journalDirectory().toString());
      PrintWriter err = spec.commandLine().getErr();
      try {
        PrivacyJournal.History h = PrivacyJournal.at(journalDirectory()).history(priv);
        j.put("runs", h.runs().size());
        PrivacyJournal.Total t = JournalCommands.spentAndLimit(
            j, h, priv.size(), budget.dp != null ? budget.dp.delta : null,
            budget.secret != null ? budget.secret.p : null, true);
        if (t.notComposable().isPresent()) {
          // The reason stays on the console: it counts what the detectors found in the private
          // records (SecPE runs that protected different secrets), which a shareable report must not.
          j.putNull("spent");
          j.put("spent_error", "the runs on this dataset could not be composed into one total; see secpe privacy spent");
          err.println("warning: the report could not compose what the dataset has spent: " + t.notComposable().get());
        } else if (t.unprotected() > 0) {
          err.println("warning: " + PrivacyJournal.History.unboundedReason(t.unprotected()));
        }
      } catch (RuntimeException e) {
        // The run is done and journalled: a total that cannot be read must not cost the report.
        j.putNull("spent");
        j.put("spent_error", "what the runs on this dataset spent could not be read; see secpe privacy spent");
        err.println("warning: the report could not compose what the dataset has spent (" + e.getMessage() + ")");
      }
      err.flush();
    }
    String text = json.toString();
    OutputPaths.writeAtomically("--report", report, p -> Files.writeString(p, text + "\n"));
    System.out.println(text);
    return 0;
  }

  /** The embedded generators' short names, and the provider names they stand for. */
  static final Map<String, String> EMBEDDED_GENERATORS =
      Map.of(
          "splice", SpliceTextGenerator.NAME,
          "ngram", NgramTextGenerator.NAME,
          "guided-splice", GuidedSpliceGenerator.NAME);

  /**
   * The generator provider's name: the one {@code --generator} names (short names resolved), or
   * without it the best embedded one for the method (the splice generator; CTCL fine-tunes the
   * guided splice one). The embedded generators learn from {@code --public} unless a {@code corpus}
   * provider option names their training text.
   */
  String generatorProvider() {
    String name = generatorName != null ? generatorName : method == MethodName.ctcl ? "guided-splice" : "splice";
    return EMBEDDED_GENERATORS.getOrDefault(name, name);
  }

  /** Whether the generator is an embedded one trained here on --public (then it reads no --provider-option). */
  boolean trainsGeneratorHere() {
    return EMBEDDED_GENERATORS.containsValue(generatorProvider()) && !providerOptions.containsKey("corpus");
  }

  private TextGenerator generator(PublicCorpus pub) {
    String provider = generatorProvider();
    boolean embedded = EMBEDDED_GENERATORS.containsValue(provider);
    TextGenerator g;
    if (!trainsGeneratorHere()) {
      g = Providers.installed().createGenerator(provider, ProviderConfig.of(providerOptions));
    } else {
      if (pub.isEmpty()) {
        throw RunChecks.generatorNeedsPublic(this); // checked before any input is read; kept as a guard
      }
      List<String> texts = pub.texts();
      List<String> labels = pub.records().stream().map(r -> r.label().map(Label::name).orElse(null)).toList();
      boolean labelled = labels.stream().allMatch(Objects::nonNull);
      if (provider.equals(NgramTextGenerator.NAME)) {
        NgramTextGenerator.Builder b = NgramTextGenerator.builder();
        g = labelled ? b.train(texts, labels).build() : b.train(texts).build();
      } else if (provider.equals(GuidedSpliceGenerator.NAME)) {
        g = GuidedSpliceGenerator.builder().train(texts, labels).build();
      } else {
        g = SpliceTextGenerator.builder().train(texts, labels).build();
      }
    }
    if (!quiet) {
      spec.commandLine().getErr().println(
          "generator: " + g.name() + (embedded && !providerOptions.containsKey("corpus")
              ? " (embedded, trained on the " + pub.size() + " --public records)"
              : ""));
      spec.commandLine().getErr().flush();
    }
    return g;
  }

  private <B extends EvolutionBuilder<B>> B common(B b, PrivateStore priv, PublicCorpus pub, TextGenerator g, TextEmbedder e) {
    b.privateStore(priv).publicData(pub).generator(g).embedder(e)
        .syntheticSize(syntheticSize).seed(seed)
        .templates(PromptTemplates.defaults(domain))
        .generation(new GenerationParams(1.2, 1.0, maxTokens, List.of(), OptionalLong.empty()));
    if (priv.isLabelled()) {
      TreeSet<Label> names = new TreeSet<>();
      if (labelNames != null) {
        labelNames.forEach(n -> names.add(Label.of(n)));
      } else {
        for (PublicRecord r : pub.records()) {
          r.label().ifPresent(names::add);
        }
      }
      if (names.isEmpty()) {
        throw new IllegalArgumentException(
            "--label-field needs the public label names: give --labels a,b,... or a --public file with labels");
      }
      b.labels(new LabelSet.ToBeReleased(names));
    }
    if (reads("--vote-geometry")) { // CTCL has no rounds and refuses the evolution settings
      b.voteGeometry(DemoCommand.voteGeometry(voteGeometry));
    }
    if (reads("--variations")) { // DPGA's offspring follow its shares
      b.variations(variations);
    }
    if (iterations != null) {
      b.iterations(iterations);
    }
    if (providerTimeout != null) {
      b.generationTimeout(Duration.ofSeconds(providerTimeout)).embeddingTimeout(Duration.ofSeconds(providerTimeout));
    }
    if (providerRetries != null) {
      b.providerRetries(providerRetries);
    }
    if (checkpoint != null) {
      b.checkpoint(checkpoint).resume(resume);
    }
    b.journal(PrivacyJournal.at(journalDirectory()).lockWait(Duration.ofSeconds(journalWait)));
    if (allowRemote) {
      b.allowRemoteEmbedding();
    }
    if (reproducibleNoise != null) {
      b.noise(NoiseSources.reproducibleForTests(reproducibleNoise));
    }
    if (!quiet) {
      b.listener(new ConsoleProgress(System.err));
    }
    return b;
  }

  private RunResult run(PrivateStore priv, PublicCorpus pub, TextGenerator g, TextEmbedder e) {
    switch (method) {
      case secpe:
        SecPE.Builder sb = common(SecPE.builder(), priv, pub, g, e)
            .budget(budget.secret.toBudget())
            .secrets(detector)
            .secretFreeAsPublic(secretFreePublic);
        if (clusters != null) {
          sb.clusters(clusters);
        }
        if (secretFreeVotes || publicJoinsClusters) { // both need --secret-free-public (RunChecks.combinations)
          sb.secretFreeVotes(secretFreeVotes).publicJoinsClusters(publicJoinsClusters);
        }
        if (publicGuidedVotes) {
          if (secretFreePublic) {
            throw new IllegalArgumentException("--public-guided-votes applies without --secret-free-public (in the"
                + " split, --secret-free-votes lets the secret-free records guide the votes)");
          }
          sb.selection(SecPE.SelectionMode.PUBLIC_GUIDED);
        }
        if (secretCap != null) {
          sb.secretCap(secretCap); // checked with the option's name in RunChecks.options
        }
        SecPE secpe = sb.build();
        warnBeforeRun(secpe.warnings());
        try {
          return running(secpe::cancel, secpe::run);
        } catch (SecPE.NoSecretsException x) {
          throw new IllegalStateException(
              x.getMessage() + "; choose what to protect with --secrets (pii, names, random-words[:COUNT], terms:FILE)");
        }
      case augpe:
        AugPE.Builder a = common(AugPE.builder(), priv, pub, g, e);
        if (budget.secret != null) {
          a.budget(budget.secret.toBudget());
        } else {
          a.budget(budget.dp.toBudget());
        }
        AugPE augpe = a.build();
        warnBeforeRun(augpe.warnings());
        return running(augpe::cancel, augpe::run);
      case ctcl:
        CTCL.Builder c = common(CTCL.builder(), priv, pub, g, e)
            .budget(dpBudget(priv))
            .topics(topics)
            .steps(steps)
            .clipNorm(clipNorm)
            .histogramSigma(histogramSigma);
        if (batchSize != null) {
          c.batchSize(batchSize);
        }
        CTCL ctcl = c.build();
        warnBeforeRun(ctcl.warnings());
        return running(ctcl::cancel, ctcl::run);
      case dpga:
      default:
        DPGA dpga = common(DPGA.builder(), priv, pub, g, e).budget(dpBudget(priv)).build();
        warnBeforeRun(dpga.warnings());
        return running(dpga::cancel, dpga::run);
    }
  }

  /** --journal, or the per-user default. */
  Path journalDirectory() {
    return journal != null ? journal : PrivacyJournal.defaultDirectory();
  }

  /** The warnings printed before the run started ({@link #warnBeforeRun}), not to be printed again. */
  private final Set<String> warnedBefore = new HashSet<>();

  /**
   * Settings that make the output weak, known before anything is embedded ({@code Runs.warnings()}):
   * on stderr, always (--quiet silences progress only).
   */
  private void warnBeforeRun(List<String> warnings) {
    warnedBefore.addAll(warnings);
    warn(warnings);
  }

  /**
   * Every warning of the run's report that was not printed before it started (what only the run
   * can know: SecPE's centre noise against its centres' power, texts that stayed copies, a journal
   * repair): on stderr once, always, as the report lists them.
   */
  private void warnAfterRun(List<String> reportWarnings) {
    warn(reportWarnings.stream().filter(w -> !warnedBefore.contains(w)).toList());
  }

  private void warn(List<String> warnings) {
    PrintWriter err = spec.commandLine().getErr();
    for (String w : warnings) {
      err.println("warning: " + w);
    }
    err.flush();
  }

  /** --epsilon/--delta as given, or (p, r) -> mu (eq. 4) -> epsilon at delta = 1/(N ln N). */
  private DpBudget dpBudget(PrivateStore priv) {
    if (budget.dp != null) {
      return budget.dp.toBudget();
    }
    GdpMu mu = Gdp.muFor(budget.secret.toBudget());
    double delta = DpBudget.deltaForDatasetSize(Math.max(2, priv.size()));
    return new DpBudget(Gdp.epsilonAt(mu, delta), delta);
  }
}
