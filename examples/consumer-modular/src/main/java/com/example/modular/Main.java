package com.example.modular;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.accounting.secret.SecretNoiseResult;
import dev.secpe.clustering.Backend;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.Label;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.evaluation.DownstreamClassifier;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import dev.secpe.llm.embedded.NgramTextGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Runs SecPE with the embedded providers and checks, as it goes, that it really ran on the module
 * path: every SecPE class lives in its named module, the providers were bound through the
 * descriptors' provides clauses, the MiniLM model was read from the model jar inside its module,
 * OR-Tools' solvers were bound as services, and nothing was printed. Exits 1 on the first failed
 * check (the build fails with it). Argument: "module-path"; "nd4j" when secpe-kernel-nd4j is on
 * the module path (bound as a service; its descriptor brings jdk.unsupported) and ND4J on the class
 * path, and the vote kernel must use it; "openblas" when secpe-kernel-openblas and JavaCPP's
 * OpenBLAS modules are on the module path, bound as a service, and the vote kernel must use them.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    String mode = args.length > 0 ? args[0] : "module-path";
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(console, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      System.setErr(capture);
      run(mode);
    } catch (RuntimeException | AssertionError e) {
      System.setErr(err);
      System.err.println("consumer-modular (" + mode + ") FAILED: " + e);
      e.printStackTrace();
      System.exit(1);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String printed = console.toString(StandardCharsets.UTF_8);
    if (!printed.isEmpty()) {
      System.err.println("consumer-modular (" + mode + ") FAILED: the library printed:\n" + printed);
      System.exit(1);
    }
    System.out.println("consumer-modular (" + mode + "): ok");
  }

  private static void run(String mode) {
    // 1. Everything is a named module: this application, SecPE's modules and the SPI.
    for (Class<?> c : List.of(Main.class, SecPE.class, SecretBudget.class, NearestNeighbours.class,
        PrivateDataset.class, TextEmbedder.class, NgramTextGenerator.class, DownstreamClassifier.class)) {
      check(c.getModule().isNamed(), c.getName() + " is not in a named module: " + c.getModule());
    }
    check(SecPE.class.getModule().getName().equals("dev.secpe.evolution"),
        "SecPE's module is " + SecPE.class.getModule().getName());

    // 2. The embedded providers are bound through the descriptors' provides clauses.
    Providers providers = Providers.installed();
    List<String> embedders = providers.embedders().stream().map(p -> p.name()).toList();
    List<String> generators = providers.generators().stream().map(p -> p.name()).toList();
    check(embedders.containsAll(List.of("all-minilm-l6-v2", "all-minilm-l6-v2-q")), "embedders " + embedders);
    check(generators.containsAll(List.of("embedded-ngram", "embedded-splice")), "generators " + generators);

    // 3. OR-Tools' solvers are bound as services (their natives come from the class path) and
    //    agree with the pure-Java simplex: records 0..5 hold secrets {0}, {0,1}, {1}, {1,2}, {2}, {}.
    List<int[]> records = List.of(new int[] {0}, new int[] {0, 1}, new int[] {1}, new int[] {1, 2},
        new int[] {2}, new int[0]);
    double simplex = noise(records, SecretNoise.LpSolver.SIMPLEX).sigma();
    double glop = noise(records, SecretNoise.LpSolver.GLOP).sigma();
    check(Math.abs(glop - simplex) <= 1e-9 * simplex, "GLOP sigma " + glop + " vs simplex " + simplex);

    // 4. The vote kernel: pure Java on the module path; OpenBLAS when secpe-kernel-openblas is
    //    on it too (a service); ND4J when secpe-kernel-nd4j is (a service that reads ND4J from
    //    the class path; the launch adds no module: its descriptor requires jdk.unsupported).
    NearestNeighbours auto = NearestNeighbours.builder().build();
    Backend want = mode.equals("nd4j") ? Backend.ND4J
        : mode.equals("openblas") ? Backend.OPENBLAS : Backend.JAVA;
    check(auto.resolvedBackend() == want, "kernel backend " + auto.resolvedBackend() + ", expected " + want);
    check(ModuleLayer.boot().findModule("dev.secpe.kernel.nd4j").isPresent() == mode.equals("nd4j"),
        "dev.secpe.kernel.nd4j resolved: " + ModuleLayer.boot().findModule("dev.secpe.kernel.nd4j").isPresent());
    float[][] a = randomRows(50, 16, 1);
    float[][] b = randomRows(20, 16, 2);
    int[] java = NearestNeighbours.builder().backend(Backend.JAVA).build()
        .top1(RowSource.of(EmbeddingMatrix.of(a)), EmbeddingMatrix.of(b)).index();
    int[] resolved = auto.top1(RowSource.of(EmbeddingMatrix.of(a)), EmbeddingMatrix.of(b)).index();
    check(Arrays.equals(java, resolved), "the " + want + " kernel disagrees with the Java one");

    // 5. Downstream accuracy on the module path: two clouds far apart, every test row right.
    float[][] near = randomRows(40, 16, 3);
    float[][] far = randomRows(40, 16, 4);
    for (float[] row : far) {
      row[0] += 20;
    }
    List<Label> labels = new ArrayList<>();
    float[][] both = new float[80][];
    for (int i = 0; i < 40; i++) {
      both[i] = near[i];
      both[40 + i] = far[i];
    }
    for (int i = 0; i < 80; i++) {
      labels.add(Label.of(i < 40 ? "near" : "far"));
    }
    double accuracy = DownstreamClassifier.evaluate(EmbeddingMatrix.of(both), labels,
        EmbeddingMatrix.of(both), labels).accuracy();
    check(accuracy == 1.0, "downstream accuracy " + accuracy);

    // 6. SecPE end to end with the int8 MiniLM (its model read from the model jar's module) and
    //    the n-gram generator trained on public text.
    List<PrivateRecord> priv = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String who = i % 3 == 0 ? " write to user" + (i % 7) + "@example.com" : "";
      priv.add(PrivateRecord.of("p" + i, (i % 2 == 0 ? "project meeting update" : "free prize offer") + who));
    }
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      pub.add((i % 2 == 0 ? "team schedule report for the week " : "discount winner urgent reply now ") + i);
    }
    try (TextEmbedder emb = providers.createEmbedder("all-minilm-l6-v2-q", ProviderConfig.empty());
        TextGenerator gen = NgramTextGenerator.builder().train(pub).build()) {
      RunResult result = SecPE.builder()
          .privateData(PrivateDataset.of(priv))
          .publicData(PublicCorpus.ofTexts(pub))
          .labels(LabelSet.unlabelled())
          .generator(gen)
          .embedder(emb)
          .secrets(PiiDetector.all())
          .budget(SecretBudget.ofRatio(1e-4, 10))
          .syntheticSize(6)
          .iterations(1)
          .clusters(3)
          .build()
          .run();
      check(result.dataset().size() == 6, "synthetic records: " + result.dataset().size());
      // 7. Every provider reports the version of the jar it came from, not "dev".
      result.report().providers().forEach(p ->
          check(!p.version().equals("dev") && !p.version().isBlank(), p.name() + " reports version " + p.version()));
    }
  }

  private static SecretNoiseResult noise(List<int[]> records, SecretNoise.LpSolver solver) {
    return SecretNoise.builder().records(records, 3).uniformBudget(SecretBudget.ofRatio(1e-4, 10))
        .rounds(2).shiftMultiplier(Math.sqrt(2)).lpSolver(solver).solve();
  }

  private static float[][] randomRows(int n, int d, long seed) {
    Random r = new Random(seed);
    float[][] x = new float[n][d];
    for (float[] row : x) {
      for (int j = 0; j < d; j++) {
        row[j] = (float) r.nextGaussian();
      }
    }
    return x;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
