package dev.secpe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.core.Label;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.DatasetReader;
import dev.secpe.core.io.InputFiles;
import dev.secpe.evolution.CTCL;
import dev.secpe.evolution.DPGA;
import dev.secpe.evolution.EvolutionBuilder;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.SizeLimits;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.prompt.PromptTemplates;
import dev.secpe.llm.spi.Providers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What {@code secpe run} checks before it draws anything, most of it before it reads a private
 * record: option values and sizes (exact arithmetic, stated limits), provider options, the inputs'
 * kinds, the outputs (never an input, a link or a device; probed with a real write of their
 * expected size), the providers (one public request each) and the declared labels. Every failure
 * is an {@link IllegalArgumentException} naming the option: exit 2, nothing charged.
 */
final class RunChecks {

  /** Bytes of one synthetic text as a JSON line, per token of --max-tokens (plus {@link #PER_TEXT}). */
  private static final long PER_TOKEN = 6;

  /** Bytes of one synthetic text as a JSON line besides its text (id, label, provenance). */
  private static final long PER_TEXT = 160;

  /** The longest generation a run may ask for (--max-tokens). */
  static final int MAX_TOKENS = 1_000_000;

  private RunChecks() {}

  /** The reader of --private and --public: text and label fields, format, limits, stall timeout. */
  static DatasetReader reader(RunCommand c, Duration readTimeout) {
    DatasetReader.Builder rb = DatasetReader.builder().textField(c.textField).readTimeout(readTimeout).format(format(c));
    if (c.labelField != null) {
      rb.labelField(c.labelField);
    } else {
      rb.noLabel();
    }
    if (c.maxRecordChars != null) {
      rb.maxRecordChars(positive("--max-record-chars", c.maxRecordChars));
    }
    if (c.maxInputBytes != null) {
      rb.maxInputBytes(positive("--max-input-bytes", c.maxInputBytes));
    }
    return rb.build();
  }

  /**
   * Without {@code --label-field}, a field named {@code label} in the inputs is ignored: say so on
   * stderr (the field's name only, from the first record or the CSV header; never a value).
   */
  static void labelFieldHint(RunCommand c, PrintWriter err) {
    if (c.labelField != null) {
      return;
    }
    for (Map.Entry<String, Path> in : List.of(Map.entry("--private", c.privateFile == null ? Path.of("") : c.privateFile),
        Map.entry("--public", c.publicFile == null ? Path.of("") : c.publicFile))) {
      if (hasLabelField(in.getValue(), format(c))) {
        err.println("run: the " + in.getKey() + " records have a 'label' field, which is ignored without"
            + " --label-field (give --label-field label to release the label proportions through a noisy histogram)");
        err.flush();
        return;
      }
    }
  }

  /** Whether the first record of {@code file} (JSONL) or its header (CSV) has a "label" field; false on any failure. */
  static boolean hasLabelField(Path file, DatasetReader.Format format) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean csv = format == DatasetReader.Format.CSV
        || (format == DatasetReader.Format.AUTO && (name.endsWith(".csv") || name.endsWith(".csv.gz")));
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        InputFiles.open(file, Duration.ofSeconds(5)), StandardCharsets.UTF_8))) {
      String line;
      do {
        line = r.readLine();
      } while (line != null && line.isBlank());
      if (line == null) {
        return false;
      }
      if (csv) {
        for (String h : line.split(",")) {
          if (h.strip().replace("\"", "").equals("label")) {
            return true;
          }
        }
        return false;
      }
      JsonNode node = new ObjectMapper().readTree(line);
      return node != null && node.isObject() && node.has("label");
    } catch (IOException | RuntimeException e) {
      return false; // the reader reports a bad input with its own error
    }
  }

  private static DatasetReader.Format format(RunCommand c) {
    switch (c.format.toLowerCase(Locale.ROOT)) {
      case "auto":
        return DatasetReader.Format.AUTO;
      case "jsonl":
        return DatasetReader.Format.JSONL;
      case "csv":
        return DatasetReader.Format.CSV;
      default:
        throw new IllegalArgumentException("--format must be auto, jsonl or csv, got --format " + c.format);
    }
  }

  private static long positive(String option, long v) {
    return atLeast(option, v, 1, "");
  }

  /** {@code v} when it is at least {@code lo}; else an error naming the option, {@code why} and the value. */
  static long atLeast(String option, long v, long lo, String why) {
    if (v < lo) {
      throw new IllegalArgumentException(option + " must be >= " + lo + why + ", got " + option + " " + v);
    }
    return v;
  }

  /** {@code v} when it is in [lo, hi]; else an error naming the option, the range, {@code why} and the value. */
  private static long within(String option, long v, long lo, long hi, String why) {
    if (v < lo || v > hi) {
      throw new IllegalArgumentException(
          option + " must be in [" + lo + ", " + hi + "]" + why + ", got " + option + " " + v);
    }
    return v;
  }

  /** Numbers and sizes, each against its stated range; provider options against the providers'. */
  static void options(RunCommand c) {
    if (c.budget.dp != null) {
      finiteIn("--epsilon", c.budget.dp.epsilon, 0, Double.MAX_VALUE, false);
      finiteIn("--delta", c.budget.dp.delta, 0, 1, true);
    } else {
      finiteIn("--p", c.budget.secret.p, 0, 1, true);
      finiteIn("--r", c.budget.secret.r, 0, 1, true);
    }
    SizeLimits.check("--synthetic-size", c.syntheticSize, SizeLimits.MAX_SYNTHETIC_SIZE);
    SizeLimits.check("--max-tokens", c.maxTokens, MAX_TOKENS);
    if (c.iterations != null) {
      SizeLimits.check("--iterations", c.iterations, SizeLimits.MAX_ITERATIONS);
    }
    SizeLimits.check("--variations", c.variations, SizeLimits.MAX_VARIATIONS);
    try {
      SizeLimits.candidates(c.syntheticSize, perSurvivor(c), c.rounds());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--synthetic-size " + c.syntheticSize
          + (c.reads("--variations") ? " with --variations " + c.variations : "")
          + (c.reads("--iterations") ? " and --iterations " + c.rounds() : "") + ": " + e.getMessage());
    }
    if (c.method == RunCommand.MethodName.ctcl) {
      SizeLimits.check("--steps", c.steps, SizeLimits.MAX_STEPS);
      SizeLimits.check("--topics", c.topics, SizeLimits.MAX_TOPICS);
      if (c.batchSize != null) {
        SizeLimits.check("--batch-size", c.batchSize, SizeLimits.MAX_SYNTHETIC_SIZE);
      }
      finiteIn("--histogram-sigma", c.histogramSigma, CTCL.MIN_HISTOGRAM_SIGMA, CTCL.MAX_HISTOGRAM_SIGMA, false);
      finiteIn("--clip-norm", c.clipNorm, CTCL.MIN_CLIP_NORM, CTCL.MAX_CLIP_NORM, false);
    }
    if (c.reads("--clusters") && c.clusters != null) {
      SizeLimits.check("--clusters", c.clusters, SizeLimits.MAX_TOPICS);
    }
    within("--journal-wait", c.journalWait, 0, MAX_JOURNAL_WAIT, " seconds (at most a week)");
    if (c.providerTimeout != null) {
      within("--provider-timeout", c.providerTimeout, 1, MAX_PROVIDER_TIMEOUT, " seconds (at most a day)");
    }
    if (c.providerRetries != null) {
      atLeast("--provider-retries", c.providerRetries, 0, "");
    }
    if (c.secretCap != null) {
      atLeast("--secret-cap", c.secretCap, 1, " (the most secrets a record may hold)");
    }
    if (c.secretsSpec != null) {
      SecretsOption.check(c.secretsSpec);
    }
    if (c.journal != null && c.journal.toString().isEmpty()) {
      throw new IllegalArgumentException("--journal must not be empty");
    }
    providerOptions(c);
  }

  /** The longest --journal-wait, in seconds: a week (a longer wait overflowed, exit 1). */
  static final long MAX_JOURNAL_WAIT = 7L * 24 * 3600;

  /** The longest --provider-timeout, in seconds: a day. */
  static final long MAX_PROVIDER_TIMEOUT = 24L * 3600;

  /** A round's candidates per survivor: L + 1, DPGA's population multiple (the paper's shares), 1 for CTCL. */
  private static long perSurvivor(RunCommand c) {
    switch (c.method) {
      case dpga:
        return DPGA.Shares.paper().total();
      case ctcl:
        return 1;
      default:
        return c.variations + 1L;
    }
  }

  /** A finite number in (lo, hi) where {@code open}, else in [lo, hi] (lo 0: (0, hi]). */
  private static void finiteIn(String option, double v, double lo, double hi, boolean open) {
    boolean ok = Double.isFinite(v) && (open ? v > lo && v < hi : (lo == 0 ? v > 0 : v >= lo) && v <= hi);
    if (!ok) {
      String range = open ? "(" + lo + ", " + hi + ")" : (lo == 0 ? "(0, " : "[" + lo + ", ") + hi + "]";
      throw new IllegalArgumentException(option + " must be a finite number in " + range + ", got " + option + " " + v);
    }
  }

  /** Refuses a --provider-option no chosen provider reads (a misspelt key was silently ignored). */
  private static void providerOptions(RunCommand c) {
    if (c.providerOptions.isEmpty()) {
      return;
    }
    Providers installed = Providers.installed();
    Set<String> known = new TreeSet<>();
    List<String> readers = new ArrayList<>();
    try {
      if (!c.trainsGeneratorHere()) {
        Optional<Set<String>> o = installed.generator(c.generatorProvider()).options();
        if (o.isEmpty()) {
          return; // a provider that does not list its options takes any
        }
        known.addAll(o.get());
        readers.add("--generator " + c.generatorProvider());
      }
      if (c.embedderName != null) {
        Optional<Set<String>> o = installed.embedder(c.embedderName).options();
        if (o.isEmpty()) {
          return;
        }
        known.addAll(o.get());
        readers.add("--embedder " + c.embedderName);
      }
    } catch (RuntimeException unknownProvider) {
      return; // creating it names the unknown provider
    }
    if (readers.isEmpty()) {
      throw new IllegalArgumentException(
          "--provider-option " + String.join(", ", new TreeSet<>(c.providerOptions.keySet()))
              + ": nothing reads it (the embedded generator is trained here on --public and the default embedder"
              + " takes no options); options go to a provider chosen with --generator or --embedder, or corpus=FILE"
              + " to the embedded generator");
    }
    for (String key : new TreeSet<>(c.providerOptions.keySet())) {
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            "--provider-option " + key + " is not read by " + String.join(" or ", readers) + "; "
                + (known.isEmpty() ? "it reads none" : "they read: " + String.join(", ", known)));
      }
    }
  }

  /**
   * Options that cannot work together, refused before any start-up work (reading an input,
   * training a generator, loading or probing a model; the options the method would ignore are
   * refused just before, by {@code RunCommand}): the split's options without the split, SecPE
   * without a (p, r) budget, {@code --resume} without a checkpoint, and what a run without {@code
   * --public} cannot do ({@link #withoutPublic}).
   */
  static void combinations(RunCommand c) {
    if (!c.secretFreePublic && (c.secretFreeVotes || c.publicJoinsClusters)) {
      throw new IllegalArgumentException(
          (c.secretFreeVotes ? "--secret-free-votes" : "--public-joins-clusters") + " needs --secret-free-public");
    }
    if (c.method == RunCommand.MethodName.secpe && c.budget.secret == null) {
      throw new IllegalArgumentException(
          "SecPE needs a (p, r) budget: give --p and --r (--epsilon and --delta are for augpe, dpga and ctcl)");
    }
    if (c.resume && c.checkpoint == null) {
      throw new IllegalArgumentException("--resume needs --checkpoint DIR");
    }
    if (c.publicFile == null) {
      withoutPublic(c);
    }
  }

  /**
   * The kinds of the input files (--private, --public): each must be a file, a FIFO or a device
   * whose format is known, never a directory. A missing one is left to {@link #inputsExist}, which
   * comes after the outputs are checked.
   */
  static void inputs(RunCommand c) {
    kind("--private", c.privateFile, c.format);
    kind("--public", c.publicFile, c.format);
  }

  /**
   * The input files (--private, --public, --secrets terms files) exist: a missing one is said
   * before anything is read and before any hint about other options, in the words every command
   * uses ({@link #exists}).
   */
  static void inputsExist(RunCommand c) {
    exists("--private", c.privateFile);
    exists("--public", c.publicFile);
    for (Path terms : SecretsOption.files(c.secretsSpec)) {
      exists("--secrets terms", terms);
    }
  }

  /**
   * Refuses an input file that does not exist, in the words every command uses: "OPTION file not
   * found: PATH" ({@code run}, {@code evaluate}, {@code privacy spent} and {@code limit}).
   */
  static void exists(String option, Path p) {
    if (p != null && !Files.exists(p)) {
      throw new IllegalArgumentException(option + " file not found: " + p);
    }
  }

  /**
   * Refuses an input {@code option} that is missing ({@link #exists}), a directory, or whose format
   * cannot be told from its name where {@code format} is auto.
   */
  static void input(String option, Path p, String format) {
    exists(option, p);
    kind(option, p, format);
  }

  /** Refuses an input that is a directory, or whose format cannot be told; a missing one passes. */
  private static void kind(String option, Path p, String format) {
    if (p == null || !Files.exists(p)) {
      return;
    }
    if (Files.isDirectory(p)) {
      throw new IllegalArgumentException(option + " " + p + " is a directory: give a file");
    }
    if (format.equalsIgnoreCase("auto")) {
      String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
      if (n.endsWith(".gz")) {
        n = n.substring(0, n.length() - 3);
      }
      if (!(n.endsWith(".jsonl") || n.endsWith(".ndjson") || n.endsWith(".json") || n.endsWith(".csv"))) {
        throw new IllegalArgumentException(
            option + " " + p + (Files.isRegularFile(p) ? "" : " (" + OutputPaths.kind(p) + ")")
                + ": cannot tell its format from its name (.jsonl, .csv, optionally .gz): give --format jsonl or --format csv");
      }
    }
  }

  /**
   * The outputs, the checkpoint and the journal directory against every input (the private and
   * public files, --secrets terms files, files named by --provider-option) and each other, each
   * probed with a write of its expected size.
   */
  static void outputs(RunCommand c) {
    long perText = PER_TOKEN * c.maxTokens + PER_TEXT;
    int rounds = c.rounds();
    long candidates = (long) c.syntheticSize * perSurvivor(c);
    long values = candidates * rounds + 4096;
    OutputPaths.Plan plan = new OutputPaths.Plan()
        .input("--private", c.privateFile)
        .input("--public", c.publicFile);
    for (Path terms : SecretsOption.files(c.secretsSpec)) {
      plan.input("--secrets terms:" + terms, terms);
    }
    for (Map.Entry<String, String> o : c.providerOptions.entrySet()) {
      Path p = pathOrNull(o.getValue());
      if (p != null && Files.exists(p)) {
        plan.input("--provider-option " + o.getKey(), p);
      }
    }
    plan.file("--out", c.out, c.syntheticSize * perText)
        .file("--report", c.report, 64L * 1024 + 1024L * (rounds + 4))
        // The old and the new checkpoint exist together while it is replaced.
        .directory("--checkpoint", c.checkpoint, 2 * (candidates * perText + values * 26 + 65536),
            EvolutionBuilder.CHECKPOINT_FILES, false)
        .directory("--journal", c.journalDirectory(), values * 12 + 65536, List.of(), true);
    plan.check();
  }

  private static Path pathOrNull(String s) {
    try {
      return s == null || s.isBlank() ? null : Path.of(s);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * What a run without {@code --public} cannot do, refused before any input is read: SecPE's
   * clusters need public text unless {@code --secret-free-public} builds them on the private records
   * that hold no secret; CTCL's topic model is built on public text only; {@code
   * --public-joins-clusters} names the corpus that joins; and an embedded generator trained here
   * learns from it (a generator plugged in through the SPI, or an embedded one given {@code
   * corpus=FILE}, needs none).
   */
  static void withoutPublic(RunCommand c) {
    if (c.method == RunCommand.MethodName.ctcl) {
      throw new IllegalArgumentException("--public is required for CTCL: its topic model is built on public text only");
    }
    if (c.method == RunCommand.MethodName.secpe && !c.secretFreePublic) {
      throw new IllegalArgumentException(
          "--public is required for SecPE: its clusters are built on public text only (with --secret-free-public"
              + " they are built on the private records that hold no secret, and --public is optional)");
    }
    if (c.publicJoinsClusters) {
      throw new IllegalArgumentException("--public-joins-clusters needs --public: the public records it adds to the clusters");
    }
    if (c.trainsGeneratorHere()) {
      throw generatorNeedsPublic(c);
    }
  }

  /** The error of an embedded generator trained here without {@code --public}. */
  static IllegalArgumentException generatorNeedsPublic(RunCommand c) {
    return new IllegalArgumentException(
        "--generator " + c.generatorProvider() + (c.generatorName == null ? " (the default)" : "")
            + " learns from public text: give --public (the text it is trained on here), --provider-option"
            + " corpus=FILE (a public text file to train it on), or a --generator that needs no training text"
            + " (a model plugged in through the SPI; see secpe providers)");
  }

  /**
   * Refuses a REMOTE embedder without {@code --allow-remote-embedding} before any request is made to
   * it: by its provider's declared locality before it is created ({@code embedder} null), and by
   * the embedder's own once it is (before the probe). The run's builder checks the same later; this
   * check is what keeps the probe of public text, and a dimension probe, from reaching the service
   * without consent.
   */
  static void remoteEmbedding(RunCommand c, TextEmbedder embedder) {
    if (c.allowRemote) {
      return;
    }
    Locality locality;
    String name;
    if (embedder != null) {
      locality = embedder.locality();
      name = c.embedderName == null ? embedder.name() : c.embedderName;
    } else if (c.embedderName == null) {
      return; // the in-process MiniLM: LOCAL
    } else {
      try {
        locality = Providers.installed().embedder(c.embedderName).locality();
      } catch (RuntimeException unknownProvider) {
        return; // creating it names the unknown provider
      }
      name = c.embedderName;
    }
    if (locality != Locality.LOCAL) {
      throw new IllegalArgumentException(
          "--embedder " + name + " is " + locality + ": the private records would leave this process; give"
              + " --allow-remote-embedding to allow it, or use a LOCAL embedder (no request was made to it)");
    }
  }

  /**
   * One request of public text to the generator and one to the embedder, before any private
   * record is read or anything is drawn: a provider that cannot answer fails here, naming its
   * option, and costs nothing.
   */
  static void probe(RunCommand c, TextGenerator g, TextEmbedder e, PublicCorpus pub) {
    long timeout = c.providerTimeout == null ? 1800 : c.providerTimeout;
    String label = pub.records().stream().map(PublicRecord::label).flatMap(Optional::stream)
        .map(Label::name).findFirst().orElse(null);
    String gen = "--generator " + c.generatorProvider() + (c.generatorName == null ? " (the default)" : "");
    String emb = c.embedderName == null ? "the embedded embedder" : "--embedder " + c.embedderName;
    try {
      GenerationRequest r = PromptTemplates.defaults(c.domain).request(
          new GenerationTask.Random(label, List.of(), 8),
          new GenerationParams(1.0, 1.0, Math.min(c.maxTokens, 16), List.of(), OptionalLong.of(c.seed)),
          new SplittableRandom(c.seed));
      CompletableFuture<? extends List<?>> f = g.generateAsync(List.of(r));
      List<?> got;
      try {
        got = f.get(timeout, TimeUnit.SECONDS);
      } finally {
        f.cancel(true);
      }
      if (got == null || got.size() != 1) {
        throw new IllegalStateException("it returned " + (got == null ? 0 : got.size()) + " results for 1 request");
      }
    } catch (Exception x) {
      throw failedProbe(gen, x, timeout);
    }
    try {
      float[][] v = e.embed(List.of("A public probe sentence."));
      if (v.length != 1 || v[0].length != e.dimension()) {
        throw new IllegalStateException("it returned " + v.length + " rows for 1 text");
      }
    } catch (Exception x) {
      throw failedProbe(emb, x, timeout);
    }
  }

  private static IllegalArgumentException failedProbe(String who, Exception x, long timeout) {
    Throwable cause = x instanceof ExecutionException && x.getCause() != null ? x.getCause() : x;
    String why = cause instanceof TimeoutException
        ? "no answer within " + timeout + " s (--provider-timeout)"
        : cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + CliErrors.oneLine(cause.getMessage()));
    return new IllegalArgumentException(
        who + " failed a probe request of public text made before any private record was read (" + why
            + "); nothing was read or drawn");
  }

  /**
   * With --labels, every label of the private records must be declared: the error names the
   * option and how many records fall outside, and the labels themselves only where --public holds
   * them too (a label found only in the private records may itself be private).
   */
  static void labels(RunCommand c, PrivateStore priv, PublicCorpus pub) {
    if (c.labelNames == null || priv.inMemory().isEmpty() || !priv.isLabelled()) {
      return;
    }
    Set<String> declared = new TreeSet<>(c.labelNames);
    Set<String> publicLabels = new TreeSet<>();
    pub.records().forEach(r -> r.label().ifPresent(l -> publicLabels.add(l.name())));
    Set<String> outside = new TreeSet<>();
    int records = 0;
    for (PrivateRecord r : priv.inMemory().get().records()) {
      String l = r.label().map(Label::name).orElse("");
      if (!declared.contains(l)) {
        outside.add(l);
        records++;
      }
    }
    if (records == 0) {
      return;
    }
    Set<String> nameable = new TreeSet<>(outside);
    nameable.retainAll(publicLabels);
    throw new IllegalArgumentException(
        "--labels " + String.join(",", c.labelNames) + " does not list every label of --private: " + records
            + " record(s) carry " + outside.size() + " other label(s)"
            + (nameable.isEmpty() ? "" : ", among them " + String.join(", ", nameable) + " (found in --public)")
            + (nameable.size() < outside.size() ? "; labels found only in the private records are not named" : "")
            + "; add them to --labels");
  }
}
