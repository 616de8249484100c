package dev.secpe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.cli.demo.DemoReport;
import dev.secpe.cli.demo.DemoResult;
import dev.secpe.cli.demo.DemoRunner;
import dev.secpe.core.Label;
import dev.secpe.core.report.Phase;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.cache.CachingEmbedder;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.embedded.NgramTextGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code secpe demo}: the README's main job. SecPE, Aug-PE and DPGA at the same reconstruction
 * guarantee (p = 1e-4, r/p in {2, 10, inf}) on the bundled SpamAssassin sample, with the embedded
 * n-gram generator (trained on the public part) and the in-process MiniLM embedder; no network.
 * Prints a table and writes {@code report.html} and {@code results.json}.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Run SecPE, Aug-PE and DPGA side by side on the bundled corpus and write an HTML report.")
final class DemoCommand implements Callable<Integer> {

  @Option(names = "--out", defaultValue = "secpe-demo", description = "output directory (default: ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--synthetic-size", defaultValue = "100", description = "N_syn per run (default: ${DEFAULT-VALUE})")
  int syntheticSize;

  @Option(names = "--iterations", defaultValue = "3", description = "T (default: ${DEFAULT-VALUE})")
  int iterations;

  @Option(names = "--variations", defaultValue = "3", description = "L (default: ${DEFAULT-VALUE})")
  int variations;

  @Option(names = "--clusters", defaultValue = "100", description = "SecPE's K, split over the two labels (default: ${DEFAULT-VALUE})")
  int clusters;

  @Option(names = "--held-out", defaultValue = "150", description = "real records held out for downstream accuracy (default: ${DEFAULT-VALUE})")
  int heldOut;

  @Option(names = "--ratios", split = ",", defaultValue = "2,10,inf", description = "r/p values; inf = non-private (default: ${DEFAULT-VALUE})")
  List<String> ratios;

  @Option(names = "--methods", split = ",", defaultValue = "secpe,augpe,dpga,ctcl", description = "methods to run (default: ${DEFAULT-VALUE})")
  List<String> methods;

  @Option(names = "--seed", defaultValue = "2026", description = "generation seed (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--reproducible-noise", paramLabel = "SEED", description = "seeded NON-PRIVATE noise, so numbers repeat; the report says so")
  Long reproducibleNoise;

  @Override
  public Integer call() {
    System.setProperty("java.awt.headless", "true");
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
      if (!List.of("secpe", "augpe", "dpga", "ctcl").contains(m)) {
        throw new IllegalArgumentException("--methods takes secpe, augpe, dpga, ctcl, got method=" + m);
      }
    }
    Supplier<NoiseSource> noise =
        reproducibleNoise == null ? NoiseSources::secure : () -> NoiseSources.reproducibleForTests(reproducibleNoise);
    DemoRunner.Data data = DemoRunner.data(heldOut, seed);
    long t0 = System.nanoTime();
    System.err.println("training the embedded n-gram generator on " + data.publicData().size() + " public e-mails ...");
    NgramTextGenerator generator =
        NgramTextGenerator.builder()
            .train(
                data.publicData().texts(),
                data.publicData().records().stream().map(r -> r.label().map(Label::name).orElse(null)).toList())
            .build();
    try (generator;
        TextEmbedder embedder = CachingEmbedder.inMemory(MiniLmEmbedder.create(), 200_000)) {
      DemoRunner runner =
          new DemoRunner(
              new DemoRunner.Settings(syntheticSize, iterations, variations, clusters, heldOut, rs, methods, seed, noise),
              generator,
              embedder,
              System.err);
      List<DemoResult> results = runner.run(data);
      double seconds = (System.nanoTime() - t0) / 1e9;
      printTable(results);
      int[] realLengths = data.heldOut().stream().mapToInt(r -> r.text().wordCount()).toArray();
      String settings =
          String.format(
              Locale.ROOT,
              "p = 1e-4; N_syn = %d, T = %d, L = %d, K = %d; %d private e-mails (%d more held out for downstream"
                  + " accuracy), %d public; embedded n-gram generator, in-process all-MiniLM-L6-v2; noise: %s;"
                  + " %.0f s in all. Evaluation (FID, accuracy, real length histogram) compares with real"
                  + " records and is not itself differentially private: on truly private data keep such numbers"
                  + " inside.",
              syntheticSize, iterations, variations, clusters, data.privateData().size(), heldOut,
              data.publicData().size(), reproducibleNoise == null ? "secure" : "seeded, NON-PRIVATE", seconds);
      Files.createDirectories(out);
      DemoReport.write(out.resolve("report.html"), results, realLengths, settings);
      writeJson(out.resolve("results.json"), results, seconds);
      System.out.printf(Locale.ROOT, "%nreport: %s%nresults: %s%ntotal: %.0f s%n",
          out.resolve("report.html"), out.resolve("results.json"), seconds);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return 0;
  }

  private static void printTable(List<DemoResult> results) {
    System.out.printf("%n%-6s %5s %9s %8s %9s %8s %8s%n", "method", "r/p", "sigma", "FID", "accuracy", "gen s", "sel s");
    for (DemoResult r : results) {
      System.out.printf(
          Locale.ROOT,
          "%-6s %5s %9s %8.4f %9.3f %8.2f %8.2f%n",
          r.method(),
          r.ratioLabel(),
          Double.isNaN(r.sigma()) ? "-" : String.format(Locale.ROOT, "%.3f", r.sigma()),
          r.fid(),
          r.accuracy(),
          r.report().timing().seconds(Phase.GENERATION),
          r.report().timing().seconds(Phase.SELECTION));
    }
  }

  private static void writeJson(Path file, List<DemoResult> results, double seconds) throws IOException {
    ObjectMapper m = new ObjectMapper();
    ObjectNode root = m.createObjectNode();
    root.put("total_seconds", seconds);
    ArrayNode runs = root.putArray("runs");
    for (DemoResult r : results) {
      ObjectNode o = runs.addObject();
      o.put("method", r.method());
      o.put("ratio", r.ratioLabel());
      if (!Double.isNaN(r.sigma())) {
        o.put("sigma", r.sigma());
      }
      o.put("fid", r.fid());
      o.put("downstream_accuracy", r.accuracy());
      o.put("generation_seconds", r.report().timing().seconds(Phase.GENERATION));
      o.put("embedding_seconds", r.report().timing().seconds(Phase.EMBEDDING));
      o.put("selection_seconds", r.report().timing().seconds(Phase.SELECTION));
      ArrayNode f = o.putArray("fid_per_round");
      r.fidPerRound().forEach(f::add);
    }
    m.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
  }
}
