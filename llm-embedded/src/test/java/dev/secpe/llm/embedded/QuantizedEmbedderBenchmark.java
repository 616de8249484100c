package dev.secpe.llm.embedded;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The trade-off of the int8-quantised all-MiniLM-L6-v2 ({@code all-minilm-l6-v2-q}) against the
 * float32 one ({@code all-minilm-l6-v2}), measured on the same real texts in one process (a
 * harness, not a test): throughput of each with the same thread count, the cosine between the two
 * models' vectors of each text, and how often a text's nearest other text is the same under both.
 *
 * <p>Also runs the int8 file in batches of 8 (not offered to users, see {@link
 * MiniLmEmbedder.Model#INT8}) to show how far batching moves its vectors and what it does to
 * throughput; with {@code -Dextra=true}, the float32 file one text at a time as well.
 *
 * <pre>
 * java -cp ... [-Dn=400] [-Dthreads=N] [-Drounds=2] [-Dextra=true] dev.secpe.llm.embedded.QuantizedEmbedderBenchmark [corpus.jsonl[.gz] [text-field]]
 * </pre>
 *
 * <p>Without arguments it reads the first {@code n} e-mails of the bundled SpamAssassin sample,
 * {@code data/spamassassin-sample.jsonl.gz}, found by walking up from the working directory.
 */
public final class QuantizedEmbedderBenchmark {

  private QuantizedEmbedderBenchmark() {}

  /**
   * Runs the measurement and prints a report to standard output.
   *
   * @param args optional corpus file (JSONL, gzip when ending in ".gz") and its text field
   */
  public static void main(String[] args) throws Exception {
    int n = Integer.getInteger("n", 400);
    int threads = Integer.getInteger("threads", Runtime.getRuntime().availableProcessors());
    int rounds = Integer.getInteger("rounds", 2);
    Path corpusFile = args.length > 0 ? Path.of(args[0]) : bundledSample();
    String field = args.length > 1 ? args[1] : "text";
    List<String> all = CorpusReader.read(corpusFile, field, null).texts();
    List<String> texts = all.subList(0, Math.min(n, all.size()));
    double meanChars = texts.stream().mapToInt(String::length).average().orElse(0);
    System.out.printf("corpus=%s texts=%d (first of %d, mean %.0f characters)%n",
        corpusFile, texts.size(), all.size(), meanChars);
    System.out.printf("cores=%d threads=%d rounds=%d load average at start: %.2f%n",
        Runtime.getRuntime().availableProcessors(), threads, rounds, loadAverage());

    List<Config> configs = new ArrayList<>();
    configs.add(new Config("fp32   (all-minilm-l6-v2,   batch 8)",
        MiniLmEmbedder.builder().threads(threads).build()));
    configs.add(new Config("int8   (all-minilm-l6-v2-q, batch 1)",
        MiniLmEmbedder.builder().model(MiniLmEmbedder.Model.INT8).threads(threads).build()));
    configs.add(new Config("int8 batched 8 (not offered)        ",
        MiniLmEmbedder.builder().model(MiniLmEmbedder.Model.INT8).threads(threads).batchSize(8)
            .allowBatchDependentVectors().build()));
    if (Boolean.getBoolean("extra")) {
      configs.add(new Config("fp32 batch 1                        ",
          MiniLmEmbedder.builder().threads(threads).batchSize(1).build()));
    }
    try {
      List<String> warm = texts.subList(0, Math.min(32, texts.size()));
      for (Config c : configs) {
        c.embedder.embed(warm);
      }
      // Interleaved rounds: a change of load on the host hits every configuration alike.
      for (int r = 0; r < rounds; r++) {
        for (Config c : configs) {
          long t0 = System.nanoTime();
          long c0 = cpu();
          c.vectors = c.embedder.embed(texts);
          c.wall[r] = texts.size() / ((System.nanoTime() - t0) / 1e9);
          c.perCpu[r] = texts.size() / ((cpu() - c0) / 1e9);
        }
      }
      System.out.printf("%n== throughput, median of %d rounds (wall texts/s | texts per CPU-second)%n", rounds);
      Config fp32 = configs.get(0);
      for (Config c : configs) {
        System.out.printf("%s : %7.2f | %7.2f   x%.2f wall, x%.2f CPU vs fp32%n", c.label,
            median(c.wall), median(c.perCpu), median(c.wall) / median(fp32.wall),
            median(c.perCpu) / median(fp32.perCpu));
      }

      Config int8 = configs.get(1);
      Config int8Batched = configs.get(2);
      System.out.printf("%n== agreement on %d texts%n", texts.size());
      cosines("cosine(int8, fp32) per text            ", int8.vectors, fp32.vectors);
      cosines("cosine(int8 batched, int8) per text     ", int8Batched.vectors, int8.vectors);
      cosines("cosine(int8 batched, fp32) per text     ", int8Batched.vectors, fp32.vectors);
      int[] nnFp32 = nearest(fp32.vectors, 1);
      int[] nnInt8 = nearest(int8.vectors, 1);
      int[] top3Fp32 = nearest(fp32.vectors, 3);
      System.out.printf("nearest-neighbour agreement int8 vs fp32 : %.3f (int8's nearest is in fp32's top 3: %.3f)%n",
          agreement(nnInt8, nnFp32), inTopK(nnInt8, top3Fp32, 3));
      System.out.printf("nearest-neighbour agreement int8 batched vs fp32 : %.3f%n",
          agreement(nearest(int8Batched.vectors, 1), nnFp32));
      System.out.printf("%nload average at end: %.2f on %d cores%n", loadAverage(),
          Runtime.getRuntime().availableProcessors());
    } finally {
      for (Config c : configs) {
        c.embedder.close();
      }
    }
  }

  private static final class Config {
    final String label;
    final MiniLmEmbedder embedder;
    final double[] wall = new double[Integer.getInteger("rounds", 2)];
    final double[] perCpu = new double[wall.length];
    float[][] vectors;

    Config(String label, MiniLmEmbedder embedder) {
      this.label = label;
      this.embedder = embedder;
    }
  }

  private static void cosines(String label, float[][] a, float[][] b) {
    double[] c = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      c[i] = dot(a[i], b[i]);
    }
    double[] sorted = c.clone();
    Arrays.sort(sorted);
    System.out.printf("%s: mean %.4f  min %.4f  5th percentile %.4f%n", label,
        Arrays.stream(c).average().orElse(Double.NaN), sorted[0], sorted[(int) (0.05 * (sorted.length - 1))]);
  }

  /** For each row, the indices of its k most similar other rows (ties: lower index first). */
  private static int[] nearest(float[][] v, int k) {
    int n = v.length;
    int[] out = new int[n * k];
    for (int i = 0; i < n; i++) {
      double[] best = new double[k];
      int[] idx = new int[k];
      Arrays.fill(best, Double.NEGATIVE_INFINITY);
      Arrays.fill(idx, -1);
      for (int j = 0; j < n; j++) {
        if (j == i) {
          continue;
        }
        double s = dot(v[i], v[j]);
        int pos = k;
        while (pos > 0 && s > best[pos - 1]) {
          pos--;
        }
        if (pos < k) {
          System.arraycopy(best, pos, best, pos + 1, k - pos - 1);
          System.arraycopy(idx, pos, idx, pos + 1, k - pos - 1);
          best[pos] = s;
          idx[pos] = j;
        }
      }
      System.arraycopy(idx, 0, out, i * k, k);
    }
    return out;
  }

  private static double agreement(int[] a, int[] b) {
    int same = 0;
    for (int i = 0; i < a.length; i++) {
      same += a[i] == b[i] ? 1 : 0;
    }
    return (double) same / a.length;
  }

  private static double inTopK(int[] nn, int[] topK, int k) {
    int hits = 0;
    for (int i = 0; i < nn.length; i++) {
      for (int r = 0; r < k; r++) {
        if (topK[i * k + r] == nn[i]) {
          hits++;
          break;
        }
      }
    }
    return (double) hits / nn.length;
  }

  /** Both models return unit vectors, so the dot product is the cosine. */
  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int d = 0; d < a.length; d++) {
      s += (double) a[d] * b[d];
    }
    return s;
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  private static Path bundledSample() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      Path candidate = dir.resolve("data/spamassassin-sample.jsonl.gz");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException(
        "data/spamassassin-sample.jsonl.gz not found above " + Path.of("").toAbsolutePath()
            + "; pass a corpus file as the first argument");
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
