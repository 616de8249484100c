package dev.secpe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.cli.demo.DemoCorpus;
import dev.secpe.cli.demo.DemoReport;
import dev.secpe.cli.demo.DemoResult;
import dev.secpe.cli.demo.DemoRunner;
import dev.secpe.cli.demo.DemoSummary;
import dev.secpe.cli.demo.EmbeddingProgress;
import dev.secpe.cli.demo.UtilityTable;
import dev.secpe.core.Label;
import dev.secpe.core.report.Phase;
import dev.secpe.evolution.VoteGeometry;
import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.cache.CachingEmbedder;
import dev.secpe.llm.embedded.GuidedSpliceGenerator;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.embedded.NgramTextGenerator;
import dev.secpe.llm.embedded.SpliceTextGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code secpe demo}: the README's main job. SecPE, Aug-PE, DPGA and CTCL at the same
 * reconstruction guarantee (p = 1e-4; r/p = 10 and one seed by default, the quick demo; with
 * {@code --full} r/p in {2, 10, inf} over three seeds) on the bundled SpamAssassin sample
 * split by era (older e-mails public, newer ones private), with the embedded
 * splice generator (CTCL: the guided splice generator, whose n-gram model it fine-tunes) and the in-process MiniLM embedder;
 * no network. Prints a table of mean ± sd and writes {@code report.html} and {@code results.json}.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Run SecPE, Aug-PE, DPGA and CTCL side by side on the bundled corpus and write an HTML report: by default the quick demo (r/p 10, one seed); --full runs r/p 2, 10 and inf over three seeds.")
final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "secpe-demo", description = "output directory (default: ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--synthetic-size", defaultValue = "100", description = "N_syn per run (default: ${DEFAULT-VALUE})")
  int syntheticSize;

  @Option(names = "--iterations", defaultValue = "3", description = "T (default: ${DEFAULT-VALUE})")
  int iterations;

  @Option(names = "--variations", defaultValue = "3", description = "L (default: ${DEFAULT-VALUE})")
  int variations;

  @Option(names = "--clusters", defaultValue = "100", description = "SecPE's K, split over the labels; 0 chooses K from the data as bin/secpe run does. A K larger than a label group's records to cluster is refused: in secpe-split, -joined and -votes those are the records without a secret, so --secrets pii may need 0 there (default: ${DEFAULT-VALUE})")
  int clusters;

  @Option(names = "--held-out", paramLabel = "N", description = "private records held out of every run: every figure is measured against them (default: 100 for spamassassin, 300 for the other corpora)")
  Integer heldOut;

  @Option(names = "--corpus", defaultValue = "spamassassin", description = "spamassassin: the bundled e-mails (the demo's settings were chosen on them); sotu: State of the Union passages, public 1853-1932, private 1981-2020 (a shift of era); fortunes: fortune cookies, private = the computers and science files, public = every other file (another domain, a niche of the public text); speeches, cookies and packages: SecPE's regime, 3,400 private records each: State of the Union passages of 1945-2020 by period against 1790-1944, four fortune files against the others, Debian package descriptions of the devel, games, net and science sections against the other sections (default: ${DEFAULT-VALUE})")
  String corpus;

  @Option(names = "--embedding-cache", paramLabel = "DIR", description = "keep the embeddings of every text the demo embeds in DIR (vectors and SHA-256 keys, no text; the corpora's stand-in private records included, so protect DIR like the data), so that a second demo embeds each text once")
  Path embeddingCache;

  @Option(names = "--ratios", split = ",", description = "r/p values; inf = non-private (default: 10; with --full 2,10,inf)")
  List<String> ratios;

  @Option(names = "--full", description = "the full grid: r/p 2, 10 and inf, 3 seeds each (36 runs instead of the quick demo's 4); --ratios and --seeds still override either")
  boolean full;

  @Option(names = "--methods", split = ",", defaultValue = "secpe,augpe,dpga,ctcl", description = "methods to run: secpe, augpe, dpga, ctcl, secpe-guided (SecPE with --public-guided-votes), and SecPE in the paper's dataset split (the private records holding no secret as its public part): secpe-split (the paper's rule), secpe-joined (the public corpus joins the clusters too) and secpe-votes (those records also vote one by one) (default: ${DEFAULT-VALUE})")
  List<String> methods;

  @Option(names = "--seed", defaultValue = "2026", description = "first generation seed; also picks the held-out records (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--seeds", description = "runs per (method, r/p), with seeds seed, seed+1, ...; tables show mean ± sd (default: 1; with --full 3)")
  Integer seeds;

  /** The quick demo's grid: one seed at r/p 10. */
  static final List<String> QUICK_RATIOS = List.of("10");

  /** The full grid ({@code --full}): three seeds at r/p 2, 10 and inf. */
  static final List<String> FULL_RATIOS = List.of("2", "10", "inf");

  static final int QUICK_SEEDS = 1;
  static final int FULL_SEEDS = 3;

  @Option(names = "--split", defaultValue = "lists", description = "lists: public = older e-mail folders, private = the newer mailing-list e-mails and spam (a niche the generator must find); era: private = every newer e-mail (mostly a shift in the spam share); random: the same mix on both sides (default: ${DEFAULT-VALUE})")
  String split;

  @Option(names = "--generator", defaultValue = "splice", description = "the generator of SecPE, Aug-PE and DPGA: splice recombines public sentences (embedded-splice); ngram: the Kneser-Ney model (embedded-ngram). CTCL fine-tunes the guided splice generator with splice and the n-gram model with ngram (default: ${DEFAULT-VALUE})")
  String generatorName;

  @Option(names = "--embedder", defaultValue = "all-minilm-l6-v2-q", description = "all-minilm-l6-v2-q (int8, about 2.2x faster; cosine 0.99 to fp32) or all-minilm-l6-v2 (fp32) (default: ${DEFAULT-VALUE})")
  String embedderName;

  @Option(names = "--secrets", defaultValue = "random-words", description = "what SecPE protects: random-words (SecPE §4.2) or pii (default: ${DEFAULT-VALUE})")
  String secrets;

  @Option(names = "--secret-density", paramLabel = "SHARE", description = "with --secrets random-words: as many secret words (at the 20%% frequency quantile of the public text) as make this share of the public texts hold one, e.g. 0.1 or 0.3 (default: the paper's 20 words)")
  Double secretDensity;

  @Option(names = "--reproducible-noise", paramLabel = "SEED", description = "seeded NON-PRIVATE noise, so numbers repeat; the report says so")
  Long reproducibleNoise;

  @Option(names = "--secret-cap", paramLabel = "K", description = "SecPE samples at most K records per secret, so its noise depends on (p, r, K) alone (default: off, the paper's data-dependent calibration)")
  Integer secretCap;

  @Option(names = "--vote-geometry", defaultValue = "centred", description = "centred: cosine after removing the candidates' mean (fewer hub votes); cosine: the papers' rule (default: ${DEFAULT-VALUE})")
  String voteGeometry;

  /** The {@code --vote-geometry} value as the library's enum; exit 2 naming the option otherwise. */
  static VoteGeometry voteGeometry(String value) {
    return switch (value) {
      case "centred" -> VoteGeometry.CENTRED;
      case "cosine" -> VoteGeometry.COSINE;
      default -> throw new IllegalArgumentException(
          "--vote-geometry takes centred or cosine, got vote-geometry=" + value);
    };
  }

  @Override
  public Integer call() {
    System.setProperty("java.awt.headless", "true");
    if (ratios == null) {
      ratios = full ? FULL_RATIOS : QUICK_RATIOS;
    }
    if (seeds == null) {
      seeds = full ? FULL_SEEDS : QUICK_SEEDS;
    }
    List<Double> rs =
        ratios.stream()
            .map(s -> s.trim().equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(s.trim()))
            .toList();
    for (double r : rs) {
      if (!(r > 1)) {
        throw new IllegalArgumentException("r/p must be > 1 (or inf), got r/p=" + r);
      }
    }
    for (String m : methods) {
      if (!List.of("secpe", "secpe-guided", "secpe-split", "secpe-joined", "secpe-votes", "augpe", "dpga", "ctcl")
          .contains(m)) {
        throw new IllegalArgumentException(
            "--methods takes secpe, secpe-guided, secpe-split, secpe-joined, secpe-votes, augpe, dpga, ctcl, got method="
                + m);
      }
    }
    if (seeds < 1 || seeds > 100) {
      throw new IllegalArgumentException("--seeds must be in [1, 100], got seeds=" + seeds);
    }
    if (!List.of("lists", "era", "random").contains(split)) {
      throw new IllegalArgumentException("--split takes lists, era or random, got split=" + split);
    }
    if (!List.of("splice", "ngram").contains(generatorName)) {
      throw new IllegalArgumentException("--generator takes splice or ngram, got generator=" + generatorName);
    }
    if (!List.of("all-minilm-l6-v2-q", "all-minilm-l6-v2").contains(embedderName)) {
      throw new IllegalArgumentException(
          "--embedder takes all-minilm-l6-v2-q or all-minilm-l6-v2, got embedder=" + embedderName);
    }
    if (!List.of("random-words", "pii").contains(secrets)) {
      throw new IllegalArgumentException("--secrets takes random-words or pii, got secrets=" + secrets);
    }
    VoteGeometry geometry = voteGeometry(voteGeometry);
    if (secretCap != null && secretCap < 1) {
      throw new IllegalArgumentException("--secret-cap must be >= 1, got secret-cap=" + secretCap);
    }
    // Checked before the first run: a demo is minutes of work.
    OutputPaths.preflight(Map.of(), Map.of("--out", out), Map.of());
    List<Long> seedList = LongStream.range(seed, seed + seeds).boxed().toList();
    Supplier<NoiseSource> noise =
        reproducibleNoise == null ? NoiseSources::secure : () -> NoiseSources.reproducibleForTests(reproducibleNoise);
    DemoCorpus corpusData = DemoCorpus.named(corpus, split);
    int held = heldOut != null ? heldOut : corpus.equals("spamassassin") ? 100 : 300;
    DemoRunner.Data data = DemoRunner.data(corpusData, held, seed);
    long t0 = System.nanoTime();
    System.err.println("training the embedded generators on " + data.publicData().size() + " public records ...");
    List<String> publicLabels =
        data.publicData().records().stream().map(r -> r.label().map(Label::name).orElse(null)).toList();
    // CTCL fine-tunes the n-gram model itself when the demo runs on it, else the guided splice
    // generator (the splice generator's texts, reranked by a DP fine-tuned n-gram model).
    FineTunableGenerator ctclGenerator =
        generatorName.equals("ngram")
            ? NgramTextGenerator.builder().train(data.publicData().texts(), publicLabels).build()
            : GuidedSpliceGenerator.builder().train(data.publicData().texts(), publicLabels).build();
    TextGenerator generator =
        generatorName.equals("ngram")
            ? ctclGenerator
            : SpliceTextGenerator.builder().train(data.publicData().texts(), publicLabels).build();
    EmbeddingProgress progress =
        new EmbeddingProgress(
            embedderName.equals("all-minilm-l6-v2") ? MiniLmEmbedder.create() : MiniLmEmbedder.createQuantized(),
            System.err);
    try (ctclGenerator;
        TextEmbedder embedder = embeddingCache(progress);
        CloseOnExit onSignal = new CloseOnExit(embedder, ctclGenerator)) {
      DemoRunner runner =
          new DemoRunner(
              new DemoRunner.Settings(
                  syntheticSize, iterations, variations, clusters, held, rs, methods, seedList, secrets, noise,
                  geometry, secretCap == null ? 0 : secretCap, secretDensity == null ? Double.NaN : secretDensity),
              generator,
              ctclGenerator,
              embedder,
              System.err);
      // Every record is embedded once here (the cache answers for it afterwards): most of the
      // demo's embedding, so it gets its own progress line.
      int once = data.publicData().size() + data.privateData().size() + data.heldOut().size();
      progress.expect("embedding the " + once + " records once (public, private, held out)", once);
      double startFid = runner.publicToPrivateFid(data);
      double realFid = runner.heldOutFid(data, syntheticSize);
      progress.expect("", 0);
      long runs0 = System.nanoTime();
      List<DemoResult> results = runner.run(data);
      double runsSeconds = (System.nanoTime() - runs0) / 1e9;
      double seconds = (System.nanoTime() - t0) / 1e9;
      List<DemoSummary> summary = DemoSummary.of(results);
      List<DemoRunner.Baseline> baseline = runner.publicBaseline(data);
      printTable(summary, startFid, realFid, Math.min(syntheticSize, data.privateData().size()), baseline);
      boolean splitRuns = methods.stream().anyMatch(m -> m.startsWith("secpe-") && !m.equals("secpe-guided"));
      boolean protects = methods.stream().anyMatch(m -> m.startsWith("secpe"))
          && rs.stream().anyMatch(r -> Double.isFinite(r));
      UtilityTable.Extras extras = new UtilityTable.Extras(
          protects ? runner.secretShare(data) : Double.NaN,
          splitRuns ? runner.secretFreeBaseline(data) : List.of(),
          runner.realAccuracy(data, syntheticSize));
      System.out.println(extras.describe(Math.min(syntheticSize, data.privateData().size())));
      int[] realLengths = data.heldOut().stream().mapToInt(r -> r.text().wordCount()).toArray();
      String settings =
          String.format(
              Locale.ROOT,
              "p = 1e-4; N_syn = %d, T = %d, L = %d, K = %d; corpus %s (split %s): %d private records vote, %d more"
                  + " are held out and every figure is measured against them; %d public; FID(all public) = %.3f,"
                  + " FID(%d real private records) = %.4f (FID in the 16 leading principal components of the held-out"
                  + " records); SecPE protects %s; seeds %s"
                  + " (every figure is mean ± sd over them); embedded %s generator (CTCL: the fine-tuned n-gram one), in-process %s; votes: %s; noise: %s;%s"
                  + " %.0f s in all. Evaluation (FID, MAUVE, accuracy, real length histogram) compares with real"
                  + " records and is not itself differentially private: on truly private data keep such numbers"
                  + " inside.",
              syntheticSize, iterations, variations, clusters, corpus, split, data.privateData().size(), held,
              data.publicData().size(), startFid, Math.min(syntheticSize, data.privateData().size()), realFid, secrets, seedList, generator.name(), embedder.name(),
              voteGeometry, reproducibleNoise == null ? "secure" : "seeded, NON-PRIVATE",
              secretCap == null ? "" : " SecPE secret cap K = " + secretCap + ";", seconds);
      Files.createDirectories(out);
      OutputPaths.writeAtomically(
          out.resolve("report.html"), f -> DemoReport.write(f, results, realLengths, settings));
      OutputPaths.writeAtomically(
          out.resolve("results.json"), f -> writeJson(f, results, summary, startFid, realFid, seconds, baseline));
      String command = "bin/secpe " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
      String table = UtilityTable.markdown(
          corpusData.name() + ": " + corpusData.description()
              + (secretDensity == null ? "" : String.format(Locale.ROOT,
                  "; random-word secrets chosen to be held by %.0f%% of the public texts", 100 * secretDensity)),
          command.strip(), summary, baseline, realFid,
          Math.min(syntheticSize, data.privateData().size()), extras);
      OutputPaths.writeAtomically(out.resolve("table.md"), f -> Files.writeString(f, table));
      System.out.printf(Locale.ROOT, "%nreport: %s%nresults: %s%ntotal: %.0f s%n",
          out.resolve("report.html"), out.resolve("results.json"), seconds);
      String cost = fullGridCost(
          results.size(), methods.size() * FULL_RATIOS.size() * FULL_SEEDS, runsSeconds, seconds - runsSeconds);
      if (!cost.isEmpty()) {
        System.out.println(cost);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return 0;
  }

  /**
   * The line that says what the full grid would cost, estimated from this demo's own pace: the
   * set-up (training, embedding every record once, evaluation) once plus the runs' mean time per run
   * for every run of the grid. Empty when this demo already ran the full grid or more.
   */
  static String fullGridCost(int runs, int fullRuns, double runsSeconds, double otherSeconds) {
    if (runs >= fullRuns || runs == 0) {
      return "";
    }
    double estimate = otherSeconds + runsSeconds / runs * fullRuns;
    return String.format(Locale.ROOT,
        "this was the quick demo (%d runs); the full grid, bin/secpe demo --full (%d runs: r/p 2, 10 and inf,"
            + " %d seeds each), would take about %.0f min at this run's pace",
        runs, fullRuns, FULL_SEEDS, Math.ceil(estimate / 60));
  }

  private TextEmbedder embeddingCache(TextEmbedder model) {
    if (embeddingCache == null) {
      return CachingEmbedder.inMemory(model, 200_000);
    }
    return CachingEmbedder.builder(model).maxEntries(200_000).directory(embeddingCache).build();
  }

  private static void printTable(
      List<DemoSummary> summary, double startFid, double realFid, int realN, List<DemoRunner.Baseline> baseline) {
    System.out.printf(Locale.ROOT,
        "%nAgainst the held-out private records: FID(all public) = %.4f; FID(%d real private records) = %.4f;"
            + " %d random public records: FID %s, KIDx1e3 %s; mean ± sd over seeds%n",
        startFid, realN, realFid, realN,
        DemoSummary.Stat.of(baseline.stream().mapToDouble(DemoRunner.Baseline::fid).toArray()).format(4),
        DemoSummary.Stat.of(baseline.stream().mapToDouble(b -> 1e3 * b.kid()).toArray()).format(3));
    System.out.printf("%-6s %4s %15s %15s %15s %15s %15s %15s %15s %15s %15s %13s %11s %s%n",
        "method", "r/p", "sigma", "FID first", "FID last", "KIDx1e3 last", "fidelity first", "fidelity last", "MAUVE",
        "accuracy", "distinct", "near-dup", "cache hits", "first to last round: FID / KID / fidelity");
    for (DemoSummary s : summary) {
      boolean rounds = s.fidPerRound().size() >= 2;
      System.out.printf(
          Locale.ROOT,
          "%-6s %4s %15s %15s %15s %15s %15s %15s %15s %15s %15s %13s %11s %s%n",
          s.method(),
          s.ratioLabel(),
          s.sigma().format(3),
          s.firstFid().format(4),
          s.fid().format(4),
          new DemoSummary.Stat(1e3 * s.kid().mean(), 1e3 * s.kid().sd(), s.kid().n()).format(3),
          s.firstFidelity().format(4),
          s.fidelity().format(4),
          s.mauve().format(3),
          s.accuracy().format(3),
          s.distinct().format(1),
          s.nearDuplicates().format(1),
          s.candidateHitRate().format(2),
          !rounds ? "-" : trend(s));
    }
  }

  /**
   * What the seeds say of each figure's change from the first round to the last: "falls / no
   * clear change / rises", or once "no verdict from one seed" (the quick demo).
   */
  static String trend(DemoSummary s) {
    String fid = DemoSummary.verdict(s.firstToLast(DemoResult::fidPerRound));
    if (s.runs().size() < 2) {
      return fid;
    }
    return fid + " / " + DemoSummary.verdict(s.firstToLast(DemoResult::kidPerRound)) + " / "
        + DemoSummary.verdict(s.firstToLast(DemoResult::fidelityPerRound));
  }

  private static void writeJson(
      Path file, List<DemoResult> results, List<DemoSummary> summary, double startFid, double realFid,
      double seconds, List<DemoRunner.Baseline> baseline)
      throws IOException {
    ObjectMapper m = JsonOut.MAPPER;
    ObjectNode root = m.createObjectNode();
    root.put("total_seconds", seconds);
    root.put("public_private_fid", startFid);
    root.put("held_out_real_fid", realFid);
    ArrayNode base = root.putArray("public_sample");
    for (DemoRunner.Baseline b : baseline) {
      base.addObject().put("seed", b.seed()).put("fid", b.fid()).put("kid", b.kid());
    }
    ArrayNode runs = root.putArray("runs");
    for (DemoResult r : results) {
      ObjectNode o = runs.addObject();
      o.put("method", r.method());
      o.put("ratio", r.ratioLabel());
      o.put("seed", r.seed());
      if (!Double.isNaN(r.sigma())) {
        o.put("sigma", r.sigma());
      }
      o.put("fid", r.fid());
      o.put("mauve", r.mauve());
      o.put("downstream_accuracy", r.accuracy());
      o.put("length_w1_words", r.lengthW1());
      o.put("fid_full_dimension", r.fullFid());
      o.put("fid_public_basis", r.publicBasisFid());
      o.put("distinct", r.distinct());
      o.put("near_duplicates", r.nearDuplicates());
      o.put("fid_mean_term", r.fidParts().meanTerm());
      o.put("fid_covariance_term", r.fidParts().covarianceTerm());
      o.put("spread_ratio", r.fidParts().spreadRatio());
      o.put("label_share_distance", r.labelDistance());
      o.put("generation_seconds", r.report().timing().seconds(Phase.GENERATION));
      o.put("embedding_seconds", r.report().timing().seconds(Phase.EMBEDDING));
      o.put("selection_seconds", r.report().timing().seconds(Phase.SELECTION));
      r.report().embedding().ifPresent(e -> {
        o.put("embedding_texts_per_second", e.textsPerSecond());
        o.put("candidate_cache_hit_rate", e.candidateHitRate());
      });
      ArrayNode f = o.putArray("fid_per_round");
      r.fidPerRound().forEach(f::add);
      ArrayNode fi = o.putArray("fidelity_per_round");
      r.fidelityPerRound().forEach(fi::add);
      ArrayNode co = o.putArray("coverage_per_round");
      r.coveragePerRound().forEach(co::add);
      ArrayNode ki = o.putArray("kid_per_round");
      r.kidPerRound().forEach(ki::add);
    }
    ArrayNode sum = root.putArray("summary");
    for (DemoSummary s : summary) {
      ObjectNode o = sum.addObject();
      o.put("method", s.method());
      o.put("ratio", s.ratioLabel());
      o.put("seeds", s.runs().size());
      put(o, "sigma", s.sigma());
      put(o, "fid_first_round", s.firstFid());
      put(o, "fid", s.fid());
      put(o, "mauve", s.mauve());
      put(o, "downstream_accuracy", s.accuracy());
      put(o, "length_w1_words", s.lengthW1());
      put(o, "selection_seconds", s.seconds(Phase.SELECTION));
      put(o, "embedding_seconds", s.seconds(Phase.EMBEDDING));
      put(o, "generation_seconds", s.seconds(Phase.GENERATION));
      put(o, "candidate_cache_hit_rate", s.candidateHitRate());
      put(o, "fidelity_first_round", s.firstFidelity());
      put(o, "fidelity", s.fidelity());
      put(o, "coverage", s.coverage());
      putRounds(o.putArray("fid_per_round"), s.fidPerRound());
      putRounds(o.putArray("fidelity_per_round"), s.fidelityPerRound());
      putRounds(o.putArray("coverage_per_round"), s.coveragePerRound());
      putRounds(o.putArray("kid_per_round"), s.kidPerRound());
      put(o, "kid", s.kid());
      put(o, "distinct", s.distinct());
      put(o, "near_duplicates", s.nearDuplicates());
      o.put("fid_falls_every_round", s.fidFallsEveryRound());
      o.put("fidelity_rises_every_round", s.fidelityRisesEveryRound());
      o.put("kid_falls_every_round", s.kidFallsEveryRound());
      // The change from the first round to the last, paired by seed, and what the seeds say of it.
      for (String figure : List.of("fid", "kid", "fidelity")) {
        DemoSummary.Stat c = s.firstToLast(figure.equals("fid") ? DemoResult::fidPerRound
            : figure.equals("kid") ? DemoResult::kidPerRound : DemoResult::fidelityPerRound);
        put(o, figure + "_first_to_last", c);
        if (o.has(figure + "_first_to_last")) {
          ((ObjectNode) o.get(figure + "_first_to_last")).put("seeds", c.n()).put("verdict", DemoSummary.verdict(c));
        }
      }
    }
    m.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
  }

  private static void putRounds(ArrayNode a, List<DemoSummary.Stat> rounds) {
    for (DemoSummary.Stat st : rounds) {
      ObjectNode x = a.addObject();
      x.put("mean", st.mean());
      x.put("sd", st.sd());
    }
  }

  private static void put(ObjectNode o, String key, DemoSummary.Stat s) {
    if (Double.isNaN(s.mean())) {
      return;
    }
    ObjectNode x = o.putObject(key);
    x.put("mean", s.mean());
    x.put("sd", s.sd());
  }
}
