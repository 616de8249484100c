package dev.secpe.llm.embedded;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;

/**
 * Throughput of the embedded providers (a harness, not a test). Prints rates and ratios against a
 * reference measured in the same run.
 *
 * <pre>
 * java [-Dbench=gen,embed] -cp ... dev.secpe.llm.embedded.EmbeddedBenchmark [corpus.jsonl[.gz] [text-field]]
 * </pre>
 */
public final class EmbeddedBenchmark {

  public static void main(String[] args) throws Exception {
    System.out.println("cores=" + Runtime.getRuntime().availableProcessors());
    List<String> corpus;
    if (args.length > 0) {
      corpus = CorpusReader.read(Path.of(args[0]), args.length > 1 ? args[1] : "text", null).texts();
      System.out.println("corpus=" + args[0] + " documents=" + corpus.size());
    } else {
      corpus = TestCorpus.texts(2000, 1);
      System.out.println("corpus=TestCorpus documents=" + corpus.size());
    }
    String parts = System.getProperty("bench", "gen,embed");
    if (parts.contains("gen")) {
      generator(corpus);
    }
    if (parts.contains("embed")) {
      embedder(corpus);
    }
  }

  private static List<String> sentences(List<String> corpus, int n, long seed) {
    Random rnd = new Random(seed);
    List<String> out = new ArrayList<>();
    while (out.size() < n) {
      String doc = corpus.get(rnd.nextInt(corpus.size()));
      List<String> t = WordTokenizer.tokenize(doc);
      if (t.size() < 8) {
        continue;
      }
      int len = 10 + rnd.nextInt(40);
      int start = rnd.nextInt(Math.max(1, t.size() - len));
      out.add(WordTokenizer.detokenize(t.subList(start, Math.min(t.size(), start + len))));
    }
    return out;
  }

  private static void embedder(List<String> corpus) {
    List<String> s = sentences(corpus, 512, 7);
    System.out.println("\n== all-MiniLM-L6-v2, " + s.size() + " texts of 10-50 words"
        + " (wall texts/s | texts per CPU-second)");
    double[] ref;
    try (MiniLmEmbedder e = MiniLmEmbedder.builder().threads(1).intraOpThreads(1).build()) {
      e.embed(s.subList(0, 16)); // warm-up
      ref = timeOneByOne(e, s.subList(0, 192));
      System.out.printf("one at a time, 1 thread                 : %7.1f | %7.1f (reference)%n", ref[0], ref[1]);
    }
    try (MiniLmEmbedder e = MiniLmEmbedder.builder().threads(1).intraOpThreads(2).build()) {
      e.embed(s.subList(0, 16));
      double[] r = timeOneByOne(e, s.subList(0, 192));
      System.out.printf("one at a time, ORT intra-op 2 threads   : %7.1f | %7.1f  x%.2f wall%n", r[0], r[1], r[0] / ref[0]);
    }
    for (int batch : new int[] {4, 8, 16, 32, 64}) {
      for (int[] cfg : new int[][] {{2, 1}, {1, 1}}) {
        try (MiniLmEmbedder e = MiniLmEmbedder.builder().threads(cfg[0]).intraOpThreads(cfg[1]).batchSize(batch).build()) {
          e.embed(s.subList(0, 64));
          long t0 = System.nanoTime();
          long c0 = cpu();
          e.embed(s);
          double r = s.size() / secs(t0);
          double rc = s.size() / ((cpu() - c0) / 1e9);
          System.out.printf("batched %2d, %d workers x %d ORT threads  : %7.1f | %7.1f  x%.2f wall%n",
              batch, cfg[0], cfg[1], r, rc, r / ref[0]);
        }
      }
    }
    var pool = Executors.newFixedThreadPool(2);
    try {
      AllMiniLmL6V2EmbeddingModel lc = new AllMiniLmL6V2EmbeddingModel(pool);
      List<TextSegment> segs = s.stream().map(TextSegment::from).toList();
      lc.embedAll(segs.subList(0, 64));
      long t0 = System.nanoTime();
      long c0 = cpu();
      lc.embedAll(segs);
      double r = s.size() / secs(t0);
      double rc = s.size() / ((cpu() - c0) / 1e9);
      System.out.printf("LangChain4j embedAll, 2-thread executor : %7.1f | %7.1f  x%.2f wall%n", r, rc, r / ref[0]);
    } finally {
      pool.shutdown();
    }
    System.out.printf("load average: %.2f on %d cores%n",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Runtime.getRuntime().availableProcessors());
  }

  private static double[] timeOneByOne(MiniLmEmbedder e, List<String> texts) {
    long t0 = System.nanoTime();
    long c0 = cpu();
    for (String x : texts) {
      e.embed(List.of(x));
    }
    return new double[] {texts.size() / secs(t0), texts.size() / ((cpu() - c0) / 1e9)};
  }

  private static void generator(List<String> corpus) {
    long t0 = System.nanoTime();
    NgramTextGenerator g = NgramTextGenerator.builder().order(4).train(corpus).threads(2).build();
    System.out.printf("%n== embedded-ngram: trained on %d documents in %.2f s, vocabulary %d%n",
        corpus.size(), secs(t0), g.vocabularySize());
    List<ChatMessage> prompt = List.of(ChatMessage.user("x"));
    GenerationParams params = GenerationParams.defaults();
    List<GenerationRequest> randoms = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      randoms.add(new GenerationRequest(prompt, new GenerationTask.Random(null, List.of(), 60), params.withSeed(i)));
    }
    g.generate(randoms.subList(0, 200)); // warm-up
    t0 = System.nanoTime();
    long c0 = cpu();
    List<GenerationResult> parents = g.generate(randoms);
    double randomRate = randoms.size() / secs(t0);
    double randomCpu = randoms.size() / ((cpu() - c0) / 1e9);
    double words = parents.stream().mapToInt(r -> WordTokenizer.countWords(WordTokenizer.tokenize(r.text()))).average().orElse(0);
    System.out.printf("Random  (target 60 words, mean %.1f)      : %8.0f samples/s wall, %8.0f per CPU-second%n", words, randomRate, randomCpu);
    List<GenerationRequest> fills = new ArrayList<>();
    List<GenerationRequest> rewrites = new ArrayList<>();
    List<GenerationRequest> crosses = new ArrayList<>();
    for (int i = 0; i < parents.size(); i++) {
      String p = parents.get(i).text();
      int len = WordTokenizer.countWords(WordTokenizer.tokenize(p));
      fills.add(new GenerationRequest(prompt, new GenerationTask.FillIn(p, 0.55, len + (i % 11) - 5, null), params.withSeed(i)));
      rewrites.add(new GenerationRequest(prompt, new GenerationTask.Rewrite(p, null), params.withSeed(i)));
      crosses.add(new GenerationRequest(prompt, new GenerationTask.Cross(p, parents.get((i + 1) % parents.size()).text(), null), params.withSeed(i)));
    }
    double fillRate = rate(g, fills);
    double fillCpu = lastCpuRate;
    System.out.printf("FillIn  (p = 0.55, 4 proposals per span) : %8.0f samples/s wall, %8.0f per CPU-second (x%.2f of Random)%n", fillRate, fillCpu, fillCpu / randomCpu);
    double rw = rate(g, rewrites);
    System.out.printf("Rewrite                                  : %8.0f samples/s wall, %8.0f per CPU-second%n", rw, lastCpuRate);
    double cr = rate(g, crosses);
    System.out.printf("Cross                                    : %8.0f samples/s wall, %8.0f per CPU-second%n", cr, lastCpuRate);
    System.out.printf("load average during the run: %.2f on %d cores%n",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Runtime.getRuntime().availableProcessors());
    g.close();
    try (NgramTextGenerator one = NgramTextGenerator.builder().order(4).train(corpus).threads(1).build()) {
      one.generate(randoms.subList(0, 200));
      double oneRate = rate(one, randoms);
      double oneFill = rate(one, fills);
      System.out.printf("1 thread: Random %8.0f samples/s, FillIn %8.0f samples/s; 2-thread speed-up x%.2f / x%.2f%n",
          oneRate, oneFill, randomRate / oneRate, fillRate / oneFill);
    }
  }

  private static double rate(NgramTextGenerator g, List<GenerationRequest> reqs) {
    long t0 = System.nanoTime();
    long c0 = cpu();
    g.generate(reqs);
    double wall = secs(t0);
    lastCpuRate = reqs.size() / ((cpu() - c0) / 1e9);
    return reqs.size() / wall;
  }

  /** Samples per CPU-second of the last {@link #rate} call: robust to other load on the host. */
  private static double lastCpuRate;

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static double secs(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
