package dev.secpe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.DatasetReader;
import dev.secpe.evaluation.ClassCounts;
import dev.secpe.evaluation.ClassifierOptions;
import dev.secpe.evaluation.DownstreamAccuracy;
import dev.secpe.evaluation.Evaluation;
import dev.secpe.evaluation.EvaluationReport;
import dev.secpe.evaluation.MauveOptions;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code secpe evaluate --synthetic S.jsonl --real R.jsonl [--label-field label] --json}: utility
 * metrics of a synthetic dataset against real held-out records (see {@code dev.secpe.evaluation}).
 */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    description = {
      "Compare synthetic texts with real held-out texts: FID on embeddings (in full and in the real"
          + " set's leading principal components), KID with its standard error, manifold precision/"
          + "recall, MAUVE, length distances, self-similarity, exact and near-duplicates, with --public"
          + " the same figures for a random public sample and the gain over it, and, with --label-field,"
          + " the accuracy on the real records of a classifier trained on the synthetic ones.",
      "The real texts are embedded by the chosen embedder; a REMOTE embedder needs"
          + " --allow-remote-embedder."
    })
final class EvaluateCommand implements Callable<Integer> {

  /** The embedder used when none is named: the in-process MiniLM provider (llm-embedded). */
  static final String DEFAULT_EMBEDDER = "all-minilm-l6-v2";

  @Spec CommandSpec spec;

  @Option(names = "--synthetic", required = true, paramLabel = "FILE",
      description = "Synthetic records (.jsonl or .csv, optionally .gz).")
  Path synthetic;

  @Option(names = "--real", required = true, paramLabel = "FILE",
      description = "Real held-out records (.jsonl or .csv, optionally .gz).")
  Path real;

  @Option(names = "--text-field", defaultValue = "text", paramLabel = "NAME",
      description = "Field holding the text (default: ${DEFAULT-VALUE}).")
  String textField;

  @Option(names = "--label-field", paramLabel = "NAME",
      description = "Field holding the label in both files; enables downstream accuracy.")
  String labelField;

  @Option(names = "--embedder", defaultValue = DEFAULT_EMBEDDER, paramLabel = "NAME",
      description = "Embedder provider name (default: ${DEFAULT-VALUE}); see `secpe providers`.")
  String embedderName;

  @Option(names = "--allow-remote-embedder",
      description = "Allow a REMOTE embedder to receive the real texts.")
  boolean allowRemote;

  @Option(names = "--k", defaultValue = "3", paramLabel = "K",
      description = "Neighbour rank of precision/recall (default: ${DEFAULT-VALUE}).")
  int k;

  @Option(names = "--mauve-clusters", defaultValue = "0", paramLabel = "N",
      description = "MAUVE k-means clusters; 0 = max(2, round(min(n_real, n_synthetic) / 10)).")
  int mauveClusters;

  @Option(names = "--seed", defaultValue = "25", paramLabel = "SEED",
      description = "Seed of MAUVE's k-means and the classifier (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--public", paramLabel = "FILE",
      description = "Public records (.jsonl or .csv, optionally .gz): a random sample of the synthetic set's size"
          + " is measured like it, as the baseline a method must beat (the gain over it is reported).")
  Path publicFile;

  @Option(names = "--fid-components", defaultValue = "16", paramLabel = "N",
      description = "FID is also read in the real set's N leading principal components, where it can tell"
          + " synthetic sets of a few hundred texts apart (default: ${DEFAULT-VALUE}).")
  int fidComponents;

  @Option(names = "--near-duplicate-threshold", defaultValue = "0.95", paramLabel = "COS",
      description = "Cosine similarity from which two distinct synthetic texts count as near-duplicates"
          + " (default: ${DEFAULT-VALUE}).")
  double nearDuplicateThreshold;

  @Option(names = "--json", description = "Print one JSON object (keys: see the user guide's evaluation page).")
  boolean json;

  /** Where embedders are looked up; tests put an explicit registry here. */
  Providers providers;

  @Override
  public Integer call() throws Exception {
    // Every input checked before any is read: a missing one is said as every command says it.
    RunChecks.input("--synthetic", synthetic, "auto");
    RunChecks.input("--real", real, "auto");
    RunChecks.input("--public", publicFile, "auto");
    List<PublicRecord> synth = read(synthetic, "--synthetic");
    List<PublicRecord> held = read(real, "--real");
    List<String> pub = publicFile == null ? null : readUnlabelled(publicFile, "--public");
    Providers registry = providers != null ? providers : Providers.installed();
    EvaluationReport report;
    try (TextEmbedder embedder = registry.createEmbedder(embedderName, ProviderConfig.empty())) {
      Evaluation.Builder builder =
          Evaluation.builder(embedder)
              .neighbours(k)
              .mauve(MauveOptions.defaults().withClusters(mauveClusters).withSeed(seed))
              .classifier(ClassifierOptions.defaults().withSeed(seed))
              .allowRemoteEmbedder(allowRemote)
              .fidComponents(fidComponents)
              .nearDuplicateThreshold(nearDuplicateThreshold);
      if (pub != null) {
        builder.publicBaseline(pub, seed);
      }
      PrintWriter err = spec.commandLine().getErr();
      if (!spec.commandLine().getParseResult().hasMatchedOption("--embedder")) {
        // The figures depend on the embedder: say which one reads them when the user did not choose.
        err.println("evaluate: embedding with " + embedder.name() + " (the default, as bin/secpe run's;"
            + " the demo embeds with all-minilm-l6-v2-q): --embedder NAME embeds them with another model");
        err.flush();
      }
      report = builder.build().evaluateRecords(synth, held);
      if (report.fidComponents() < fidComponents) {
        err.println("evaluate: FID read in the real set's " + report.fidComponents()
            + " leading principal components, not --fid-components " + fidComponents + ": the "
            + held.size() + " real records span no more dimensions");
        err.flush();
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(JsonOut.write(toJson(JsonOut.MAPPER, report)));
    } else {
      printText(out, report);
    }
    out.flush();
    return 0;
  }

  private List<PublicRecord> read(Path file, String option) {
    DatasetReader.Builder b = DatasetReader.builder().textField(textField);
    if (labelField != null) {
      b.labelField(labelField);
    }
    DatasetReader reader = b.build();
    return RunCommand.read(option, () -> reader.readPublic(file)).records();
  }

  /** The texts of {@code file}, labels ignored (the baseline needs text only). */
  private List<String> readUnlabelled(Path file, String option) {
    DatasetReader reader = DatasetReader.builder().textField(textField).noLabel().build();
    List<String> texts = RunCommand.read(option, () -> reader.readPublic(file)).texts();
    if (texts.size() < 3) {
      throw new IllegalArgumentException(option + " needs at least 3 records for a baseline, got " + texts.size());
    }
    return texts;
  }

  static ObjectNode toJson(ObjectMapper mapper, EvaluationReport r) {
    ObjectNode o = mapper.createObjectNode();
    o.put("fid", r.fid());
    o.put("precision", r.precisionRecall().precision());
    o.put("recall", r.precisionRecall().recall());
    o.put("mauve", r.mauve().mauve());
    if (r.downstream().isPresent()) {
      DownstreamAccuracy d = r.downstream().get();
      o.put("downstream_accuracy", d.accuracy());
      ArrayNode classes = o.putArray("downstream_per_class");
      for (ClassCounts c : d.perClass()) {
        classes.addObject()
            .put("label", c.label().name())
            .put("train", c.trainCount())
            .put("test", c.testCount())
            .put("correct", c.correct())
            .put("predicted", c.predicted());
      }
    } else {
      o.putNull("downstream_accuracy");
    }
    o.put("length_wasserstein1", r.length().wasserstein1());
    o.put("length_ks", r.length().kolmogorovSmirnov());
    o.put("mean_length_real", r.length().meanReal());
    o.put("mean_length_synthetic", r.length().meanSynthetic());
    o.put("self_similarity_synthetic", r.selfSimilaritySynthetic());
    o.put("self_similarity_real", r.selfSimilarityReal());
    o.put("synthetic_count", r.syntheticCount());
    o.put("real_count", r.realCount());
    o.put("embedder", r.embedder());
    o.put("k", r.precisionRecall().k());
    o.put("mauve_clusters", r.mauve().clusters());
    o.put("fid_components", r.fidComponents());
    o.put("fid_projected", r.fidProjected());
    o.put("kid", r.kid().value());
    o.put("kid_standard_error", r.kid().standardError());
    o.put("distinct", r.duplicates().distinct());
    o.put("exact_duplicates", r.duplicates().exactDuplicates());
    o.put("near_duplicates", r.duplicates().nearDuplicates());
    o.put("near_duplicate_threshold", r.duplicates().threshold());
    if (r.publicBaseline().isPresent()) {
      EvaluationReport.PublicBaseline b = r.publicBaseline().get();
      o.putObject("public_baseline")
          .put("size", b.size())
          .put("seed", b.seed())
          .put("fid_projected", b.fidProjected())
          .put("kid", b.kid().value())
          .put("kid_standard_error", b.kid().standardError());
      o.put("fid_gain_over_public", r.fidGainOverPublic().orElseThrow());
      o.put("kid_gain_over_public", r.kidGainOverPublic().orElseThrow());
    } else {
      o.putNull("public_baseline");
      o.putNull("fid_gain_over_public");
      o.putNull("kid_gain_over_public");
    }
    return o;
  }

  private static void printText(PrintWriter out, EvaluationReport r) {
    out.printf("synthetic %d, real %d, embedder %s%n", r.syntheticCount(), r.realCount(), r.embedder());
    out.printf("FID, full dimension      %.4f (biased upwards at a few hundred texts)%n", r.fid());
    out.printf("FID, %2d components       %.4f (the real set's leading principal components)%n",
        r.fidComponents(), r.fidProjected());
    out.printf("KID                      %.6f ± %.6f (standard error)%n", r.kid().value(), r.kid().standardError());
    out.printf("distinct                 %d of %d (%d exact copies); %d near-duplicates (cosine >= %.2f)%n",
        r.duplicates().distinct(), r.duplicates().texts(), r.duplicates().exactDuplicates(),
        r.duplicates().nearDuplicates(), r.duplicates().threshold());
    r.publicBaseline().ifPresent(b -> {
      out.printf("public sample (%d)       FID %.4f, KID %.6f ± %.6f%n", b.size(), b.fidProjected(), b.kid().value(),
          b.kid().standardError());
      out.printf("gain over public         FID %+.4f, KID %+.6f (positive: closer than the public sample)%n",
          r.fidGainOverPublic().orElseThrow(), r.kidGainOverPublic().orElseThrow());
    });
    out.printf("precision / recall (k=%d) %.4f / %.4f%n",
        r.precisionRecall().k(), r.precisionRecall().precision(), r.precisionRecall().recall());
    out.printf("MAUVE (%d clusters)       %.4f%n", r.mauve().clusters(), r.mauve().mauve());
    out.printf("length W1 / KS           %.3f words / %.4f (mean %.1f real, %.1f synthetic)%n",
        r.length().wasserstein1(), r.length().kolmogorovSmirnov(), r.length().meanReal(),
        r.length().meanSynthetic());
    out.printf("self-similarity          %.4f synthetic, %.4f real%n",
        r.selfSimilaritySynthetic(), r.selfSimilarityReal());
    out.println(r.downstream()
        .map(d -> String.format("downstream accuracy      %.4f (%d / %d)", d.accuracy(), d.correct(), d.total()))
        .orElse("downstream accuracy      n/a (no --label-field)"));
  }
}
